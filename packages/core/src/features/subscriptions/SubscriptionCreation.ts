import { Effect, Option } from "effect"
import { noKey, type Running } from "../../domain/idempotency/KeyRun.js"
import { dueAt } from "../../domain/subscriptions/BillingSchedule.js"
import { openInvoice } from "../../domain/subscriptions/Invoice.js"
import type { Plan } from "../../domain/subscriptions/Plan.js"
import { type CreateSubscription, SubscriptionRecord } from "../../domain/subscriptions/Subscription.js"
import { ReferenceNotFound, SubscriptionDeclined } from "../../domain/subscriptions/SubscriptionErrors.js"
import type { Tenant } from "../../domain/Tenant.js"
import { CustomersRepository } from "../../ports/CustomersRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { PlansRepository } from "../../ports/PlansRepository.js"
import { Transactions } from "../../ports/Transactions.js"
import { IdempotentRequests } from "../idempotency/IdempotentRequests.js"
import { BillingRecords } from "./BillingRecords.js"
import { makeOnClock } from "./BillingTime.js"
import type { InvoiceCharges } from "./InvoiceCharges.js"
import type { NativeSubscriptions } from "./NativeSubscriptions.js"
import type { SubscriptionRenewals } from "./SubscriptionRenewals.js"
import { makeSubscriptionStart, type SubscriptionStart } from "./SubscriptionStart.js"

const makeNativeCreation = (native: NativeSubscriptions, renewals: SubscriptionRenewals, start: SubscriptionStart) =>
  Effect.gen(function*() {
    const records = yield* BillingRecords
    const transactions = yield* Transactions
    const onClock = yield* makeOnClock
    const { providerFor, startingRecord } = start
    const { startAtPsp } = native

    /**
     * `engine: native`: the PSP keeps the schedule. The subscription is written `incomplete` (or
     * `trialing`) with no invoice; every later move comes from the PSP's reports (`NativeBilling`): its
     * webhooks, or, on a test clock, its answers to the clock's advances (the webhooks then repeat them).
     */
    const keys = yield* IdempotentRequests
    const createNative = (
      tenant: Tenant,
      input: CreateSubscription,
      customer: { readonly id: string; readonly test_clock: string | null },
      plan: Plan,
      run: Running
    ) =>
      Effect.gen(function*() {
        const { connection } = yield* providerFor(tenant, input, plan)
        yield* native.requireNative(tenant, connection)
        return yield* onClock(tenant, customer.test_clock)(Effect.gen(function*() {
          const record = yield* startingRecord(tenant, input, customer, plan, connection, "native")
          const id = record.id
          yield* transactions.run(Effect.zipRight(records.createSubscription(tenant, record), keys.attach(run, id)))
          yield* startAtPsp(tenant, id)
          if (customer.test_clock !== null) yield* renewals.runDue(tenant, id)
          return yield* records.subscriptionView(tenant, yield* Effect.orDie(records.subscription(tenant, id)))
        }))
      })

    return createNative
  })

/**
 * A merchant's new subscription: on the `orchestrator` engine its first invoice is charged here at
 * once; on the `native` engine the PSP is asked to run it. A repeated request finishes the first.
 */
export const makeSubscriptionCreation = (charges: InvoiceCharges, native: NativeSubscriptions, renewals: SubscriptionRenewals) =>
  Effect.gen(function*() {
    const records = yield* BillingRecords
    const customers = yield* CustomersRepository
    const plans = yield* PlansRepository
    const transactions = yield* Transactions
    const ids = yield* IdGenerator
    const onClock = yield* makeOnClock
    const { chargeAndSettle } = charges
    const { startAtPsp } = native
    const start = yield* makeSubscriptionStart
    const { providerFor, startingRecord } = start
    const createNative = yield* makeNativeCreation(native, renewals, start)

    /** A first charge declined outright answers 402 with the (incomplete) subscription inside. */
    const conclude = (tenant: Tenant, subscriptionId: string) =>
      Effect.gen(function*() {
        const subscription = yield* records.subscriptionView(tenant, yield* Effect.orDie(records.subscription(tenant, subscriptionId)))
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
    const keys = yield* IdempotentRequests
    const create = Effect.fn("Subscriptions.create")(function*(tenant: Tenant, input: CreateSubscription, run: Running = noKey) {
      if (run.recovered !== null) {
        const recovered = yield* Effect.orDie(records.subscription(tenant, run.recovered))
        if (recovered.engine === "native") {
          yield* startAtPsp(tenant, recovered.id)
          return yield* records.subscriptionView(tenant, yield* Effect.orDie(records.subscription(tenant, recovered.id)))
        }
        if (recovered.status === "incomplete" && recovered.latest_invoice_id !== null) {
          yield* onClock(tenant, recovered.test_clock)(chargeAndSettle(tenant, recovered.id, recovered.latest_invoice_id, "first"))
        }
        return yield* conclude(tenant, recovered.id)
      }
      const customer = yield* Effect.flatMap(
        customers.find(tenant, input.customer),
        Option.match({
          onNone: () => Effect.fail(new ReferenceNotFound({ param: "customer", id: input.customer })),
          onSome: Effect.succeed
        })
      )
      const plan = yield* Effect.flatMap(
        plans.find(tenant, input.plan),
        Option.match({
          onNone: () => Effect.fail(new ReferenceNotFound({ param: "plan", id: input.plan })),
          onSome: Effect.succeed
        })
      )
      if (input.engine === "native") return yield* createNative(tenant, input, customer, plan, run)
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
            yield* records.createInvoice(
              tenant,
              openInvoice({
                id: invoiceId,
                subscription_id: id,
                customer_id: customer.id,
                plan_id: plan.id,
                billing_reason: "subscription_create",
                amount_due: plan.amount,
                currency: plan.currency,
                period_start: createdAt,
                period_end: periodEnd,
                test_clock: customer.test_clock,
                created_at: createdAt,
                livemode: tenant.livemode
              })
            )
            yield* records.saveSubscription(tenant, created, { latest_invoice_id: invoiceId })
          }
          yield* keys.attach(run, id)
        }))
        if (invoiceId !== null) yield* chargeAndSettle(tenant, id, invoiceId, "first")
        return yield* conclude(tenant, id)
      }))
    })

    return create
  })
