import { Effect, Option } from "effect"
import type { CancelSubscription, SubscriptionRecord, UpdateSubscription } from "../../domain/subscriptions/Subscription.js"
import { BillingRequestInvalid, ReferenceNotFound, SubscriptionFinal } from "../../domain/subscriptions/SubscriptionErrors.js"
import { isFinal } from "../../domain/subscriptions/SubscriptionTransitions.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import { PlansRepository } from "../../ports/PlansRepository.js"
import { Transactions } from "../../ports/Transactions.js"
import { BillingRecords } from "./BillingRecords.js"
import { makeOnClock } from "./BillingTime.js"
import type { InvoiceCharges } from "./InvoiceCharges.js"
import type { NativeSubscriptions } from "./NativeSubscriptions.js"

/** A merchant's changes to a subscription: its plan (from the next period), card, metadata; a cancel. */
export const makeSubscriptionChanges = (charges: InvoiceCharges, native: NativeSubscriptions) =>
  Effect.gen(function*() {
    const records = yield* BillingRecords
    const plans = yield* PlansRepository
    const transactions = yield* Transactions
    const onClock = yield* makeOnClock
    const { releaseLatestPayment, voidOpenInvoice } = charges
    const { tellPsp } = native

    const refuseFinal = (tenant: Tenant, record: SubscriptionRecord) =>
      Effect.flatMap(records.subscriptionView(tenant, record), (subscription) => Effect.fail(new SubscriptionFinal({ subscription })))

    const update = Effect.fn("Subscriptions.update")(function*(tenant: Tenant, id: string, input: UpdateSubscription) {
      const found = yield* records.subscription(tenant, id)
      if (isFinal(found.status)) return yield* refuseFinal(tenant, found)
      if (found.engine === "native" && (input.plan !== undefined || input.cancel_at_period_end !== undefined)) {
        return yield* new BillingRequestInvalid({
          param: input.plan !== undefined ? "plan" : "cancel_at_period_end",
          code: "engine_not_supported",
          message: input.plan !== undefined
            ? "A plan change of an engine 'native' subscription is not supported yet."
            : "Cancel an engine 'native' subscription with POST /v1/subscriptions/{id}/cancel (at_period_end)."
        })
      }
      if (found.engine === "native") yield* tellPsp(tenant, found, { update: input })
      const plan = input.plan === undefined ? undefined : yield* Effect.flatMap(
        plans.find(tenant, input.plan),
        Option.match({
          onNone: () => Effect.fail(new ReferenceNotFound({ param: "plan", id: input.plan! })),
          onSome: Effect.succeed
        })
      )
      if (plan !== undefined) {
        const current = yield* Effect.orDie(Effect.flatMap(plans.find(tenant, found.plan_id), (option) => option))
        if (plan.currency !== current.currency) {
          return yield* new BillingRequestInvalid({
            param: "plan",
            code: "currency_mismatch",
            message: `The new plan charges ${plan.currency}; this subscription is billed in ${current.currency}.`
          })
        }
      }
      const updated = yield* onClock(tenant, found.test_clock)(transactions.run(Effect.gen(function*() {
        const locked = yield* records.lockSubscription(tenant, id)
        if (isFinal(locked.status)) return null
        const changes: Partial<SubscriptionRecord> = {
          ...(plan === undefined ? {} : {
            pending_update: plan.id === locked.plan_id
              ? null
              : { plan_id: plan.id, effective_at: locked.current_period_end }
          }),
          ...(input.cancel_at_period_end === undefined ? {} : { cancel_at_period_end: input.cancel_at_period_end }),
          ...(input.payment_method === undefined ? {} : { payment_method: input.payment_method }),
          ...(input.metadata === undefined ? {} : { metadata: input.metadata })
        }
        return yield* records.moveSubscription(tenant, locked, locked.status, changes)
      })))
      if (updated === null) return yield* refuseFinal(tenant, yield* records.subscription(tenant, id))
      return yield* records.subscriptionView(tenant, updated)
    })

    const cancel = Effect.fn("Subscriptions.cancel")(function*(tenant: Tenant, id: string, input: CancelSubscription) {
      const found = yield* records.subscription(tenant, id)
      if (isFinal(found.status)) return yield* refuseFinal(tenant, found)
      if (found.engine === "native") yield* tellPsp(tenant, found, { cancel: input })
      const updated = yield* onClock(tenant, found.test_clock)(transactions.run(Effect.gen(function*() {
        const locked = yield* records.lockSubscription(tenant, id)
        if (isFinal(locked.status)) return null
        if (input.at_period_end === true) {
          return yield* records.moveSubscription(tenant, locked, locked.status, { cancel_at_period_end: true })
        }
        yield* voidOpenInvoice(tenant, locked)
        return yield* records.moveSubscription(tenant, locked, "canceled", {
          canceled_at: yield* now,
          cancel_at_period_end: false,
          next_run_at: null
        })
      })))
      if (updated === null) return yield* refuseFinal(tenant, yield* records.subscription(tenant, id))
      if (updated.status === "canceled") yield* releaseLatestPayment(tenant, id)
      return yield* records.subscriptionView(tenant, updated)
    })

    return { update, cancel }
  })
