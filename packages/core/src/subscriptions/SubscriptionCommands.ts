import { DateTime, Duration, Effect, Option } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import { now } from "../domain/Timestamp.js"
import { IdempotencyScope } from "../idempotency/IdempotencyScope.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import { Transactions } from "../ports/Transactions.js"
import { Connectors } from "../providers/Connectors.js"
import { ProviderResolution } from "../providers/ProviderResolution.js"
import { knownCardOf, routingFactsOf } from "../routing/PaymentFacts.js"
import { BillingRecords } from "./BillingRecords.js"
import { dueAt } from "./BillingSchedule.js"
import { makeOnClock } from "./BillingTime.js"
import { periodBoundary } from "./BillingPeriod.js"
import { CustomersRepository } from "./CustomersRepository.js"
import { InvoiceRecord } from "./Invoice.js"
import type { InvoiceCharges } from "./InvoiceCharges.js"
import type { NativeSubscriptions } from "./NativeSubscriptions.js"
import type { Plan } from "./Plan.js"
import { PlansRepository } from "./PlansRepository.js"
import {
  type CancelSubscription,
  type CreateSubscription,
  type Subscription,
  type SubscriptionListFilter,
  SubscriptionRecord,
  type UpdateSubscription
} from "./Subscription.js"
import { BillingRequestInvalid, ReferenceNotFound, SubscriptionDeclined, SubscriptionFinal } from "./SubscriptionErrors.js"
import type { SubscriptionRenewals } from "./SubscriptionRenewals.js"
import { SubscriptionsRepository } from "./SubscriptionsRepository.js"
import { isFinal } from "./SubscriptionTransitions.js"

/** A merchant's requests on subscriptions: create (either engine), update, cancel, retrieve, list. */
export const makeSubscriptionCommands = (charges: InvoiceCharges, native: NativeSubscriptions, renewals: SubscriptionRenewals) =>
  Effect.gen(function*() {
    const records = yield* BillingRecords
    const repository = yield* SubscriptionsRepository
    const customers = yield* CustomersRepository
    const plans = yield* PlansRepository
    const resolution = yield* ProviderResolution
    const connectors = yield* Connectors
    const transactions = yield* Transactions
    const ids = yield* IdGenerator
    const onClock = yield* makeOnClock
    const { chargeAndSettle, releaseLatestPayment, voidOpenInvoice } = charges
    const { startAtPsp, tellPsp } = native

    const view = (tenant: Tenant, record: SubscriptionRecord) => records.subscriptionView(tenant, record)

    /** A first charge declined outright answers 402 with the (incomplete) subscription inside. */
    const conclude = (tenant: Tenant, subscriptionId: string) =>
      Effect.gen(function*() {
        const subscription = yield* view(tenant, yield* Effect.orDie(records.subscription(tenant, subscriptionId)))
        const payment = subscription.latest_invoice?.payment ?? null
        const declined = subscription.status === "incomplete" &&
          (payment === null || payment.status === "failed" || payment.status === "canceled")
        if (!declined) return subscription
        return yield* new SubscriptionDeclined({
          subscription,
          code: payment?.failure?.code ?? "provider_unavailable",
          message: payment?.failure?.message ?? "No payment provider could take the first charge."
        })
      })

    /** Where a new subscription's charges go: its forced provider, or routing's choice for the plan's amount. */
    const providerFor = (tenant: Tenant, input: CreateSubscription, plan: Plan) =>
      Effect.gen(function*() {
        // The card's country from its token, as the payments of its invoices are routed.
        const method = { type: "card", token: input.payment_method }
        const card = yield* knownCardOf(connectors, method)
        return yield* resolution.forPayment(tenant, {
          provider: input.provider,
          ...routingFactsOf({ amount: plan.amount, currency: plan.currency, payment_method: method }, card)
        })
      })

    /**
     * A new subscription as it starts: in its trial, or awaiting its first charge for a first period
     * anchored now. The worker's schedule (`next_run_at`) and the first invoice are each engine's to add.
     */
    const startingRecord = (
      tenant: Tenant,
      input: CreateSubscription,
      customer: { readonly id: string; readonly test_clock: string | null },
      plan: Plan,
      connection: { readonly name: string },
      engine: SubscriptionRecord["engine"]
    ) =>
      Effect.gen(function*() {
        const createdAt = yield* now
        const trialDays = input.trial_days ?? plan.trial_days ?? 0
        const trialEnd = trialDays > 0 ? DateTime.addDuration(createdAt, Duration.days(trialDays)) : null
        const anchor = trialEnd ?? createdAt
        return new SubscriptionRecord({
          id: yield* ids.make("sub"),
          status: trialEnd === null ? "incomplete" : "trialing",
          customer_id: customer.id,
          plan_id: plan.id,
          provider: connection.name,
          provider_forced: input.provider !== undefined,
          engine,
          payment_method: input.payment_method,
          return_url: input.return_url ?? null,
          current_period_start: createdAt,
          current_period_end: trialEnd ?? DateTime.unsafeMake(periodBoundary(anchor.epochMillis, plan, 1)),
          billing_cycle_anchor: anchor,
          cancel_at_period_end: false,
          canceled_at: null,
          trial_end: trialEnd,
          pending_update: null,
          provider_subscription_id: null,
          test_clock: customer.test_clock,
          metadata: input.metadata ?? {},
          latest_invoice_id: null,
          // The PSP runs a native schedule: the worker never bills it (on a test clock, it moves the PSP's clock).
          next_run_at: null,
          created_at: createdAt,
          updated_at: createdAt,
          livemode: tenant.livemode
        })
      })
    /**
     * `engine: native`: the PSP keeps the schedule. The subscription is written `incomplete` (or
     * `trialing`) with no invoice; every later move comes from the PSP's reports (`NativeBilling`): its
     * webhooks, or, on a test clock, its answers to the clock's advances (the webhooks then repeat them).
     */
    const createNative = (
      tenant: Tenant,
      input: CreateSubscription,
      customer: { readonly id: string; readonly test_clock: string | null },
      plan: Plan
    ) =>
      Effect.gen(function*() {
        const { connection } = yield* providerFor(tenant, input, plan)
        yield* native.requireNative(tenant, connection)
        const scope = yield* IdempotencyScope
        return yield* onClock(tenant, customer.test_clock)(Effect.gen(function*() {
          const record = yield* startingRecord(tenant, input, customer, plan, connection, "native")
          const id = record.id
          yield* transactions.run(Effect.zipRight(records.createSubscription(tenant, record), scope.attach(id)))
          yield* startAtPsp(tenant, id)
          if (customer.test_clock !== null) yield* renewals.runDue(tenant, id)
          return yield* view(tenant, yield* Effect.orDie(records.subscription(tenant, id)))
        }))
      })

    const create = Effect.fn("Subscriptions.create")(function*(tenant: Tenant, input: CreateSubscription) {
      const scope = yield* IdempotencyScope
      if (Option.isSome(scope.recovered)) {
        const recovered = yield* Effect.orDie(records.subscription(tenant, scope.recovered.value))
        if (recovered.engine === "native") {
          yield* startAtPsp(tenant, recovered.id)
          return yield* view(tenant, yield* Effect.orDie(records.subscription(tenant, recovered.id)))
        }
        if (recovered.status === "incomplete" && recovered.latest_invoice_id !== null) {
          yield* onClock(tenant, recovered.test_clock)(chargeAndSettle(tenant, recovered.id, recovered.latest_invoice_id, "first"))
        }
        return yield* conclude(tenant, recovered.id)
      }
      const customer = yield* Effect.flatMap(customers.find(tenant, input.customer), Option.match({
        onNone: () => Effect.fail(new ReferenceNotFound({ param: "customer", id: input.customer })),
        onSome: Effect.succeed
      }))
      const plan = yield* Effect.flatMap(plans.find(tenant, input.plan), Option.match({
        onNone: () => Effect.fail(new ReferenceNotFound({ param: "plan", id: input.plan })),
        onSome: Effect.succeed
      }))
      if (input.engine === "native") return yield* createNative(tenant, input, customer, plan)
      const { connection } = yield* providerFor(tenant, input, plan)
      return yield* onClock(tenant, customer.test_clock)(Effect.gen(function*() {
        const base = yield* startingRecord(tenant, input, customer, plan, connection, "orchestrator")
        const { created_at: createdAt, current_period_end: periodEnd, id } = base
        const invoiceId = base.trial_end === null ? yield* ids.make("in") : null
        yield* transactions.run(Effect.gen(function*() {
          // The subscription first (its event shows no invoice yet), then its first invoice.
          const created = yield* records.createSubscription(
            tenant,
            new SubscriptionRecord({ ...base, latest_invoice_id: null, next_run_at: dueAt(base, null) })
          )
          if (invoiceId !== null) {
            yield* records.createInvoice(tenant, new InvoiceRecord({
              id: invoiceId,
              subscription_id: id,
              customer_id: customer.id,
              plan_id: plan.id,
              status: "open",
              billing_reason: "subscription_create",
              amount_due: plan.amount,
              amount_paid: 0,
              currency: plan.currency,
              period_start: createdAt,
              period_end: periodEnd,
              attempt_count: 0,
              next_payment_attempt: null,
              payment_id: null,
              test_clock: customer.test_clock,
              created_at: createdAt,
              updated_at: createdAt,
              livemode: tenant.livemode
            }))
            yield* records.saveSubscription(tenant, created, { latest_invoice_id: invoiceId })
          }
          yield* scope.attach(id)
        }))
        if (invoiceId !== null) yield* chargeAndSettle(tenant, id, invoiceId, "first")
        return yield* conclude(tenant, id)
      }))
    })

    const refuseFinal = (tenant: Tenant, record: SubscriptionRecord) =>
      Effect.flatMap(view(tenant, record), (subscription) => Effect.fail(new SubscriptionFinal({ subscription })))

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
      const plan = input.plan === undefined ? undefined : yield* Effect.flatMap(plans.find(tenant, input.plan), Option.match({
        onNone: () => Effect.fail(new ReferenceNotFound({ param: "plan", id: input.plan! })),
        onSome: Effect.succeed
      }))
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
      return yield* view(tenant, updated)
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
      return yield* view(tenant, updated)
    })

    const retrieve = (tenant: Tenant, id: string) => Effect.flatMap(records.subscription(tenant, id), (record) => view(tenant, record))

    const list = (tenant: Tenant, filter: SubscriptionListFilter, page: PageRequest): Effect.Effect<Page<Subscription>, InvalidCursor> =>
      Effect.flatMap(repository.list(tenant, filter, page), (found) =>
        Effect.map(Effect.forEach(found.data, (record) => view(tenant, record)), (data) => ({ ...found, data })))

    return { create, update, cancel, retrieve, list }
  })
