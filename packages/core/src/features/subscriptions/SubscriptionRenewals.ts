import { DateTime, Duration, Effect } from "effect"
import { nextBoundary } from "../../domain/subscriptions/BillingPeriod.js"
import { expiryOf, IN_FLIGHT_RECHECK } from "../../domain/subscriptions/BillingSchedule.js"
import { openInvoice } from "../../domain/subscriptions/Invoice.js"
import type { SubscriptionRecord } from "../../domain/subscriptions/Subscription.js"
import { isFinal, transition } from "../../domain/subscriptions/SubscriptionTransitions.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import type { Job } from "../../ports/Jobs.js"
import { PlansRepository } from "../../ports/PlansRepository.js"
import { BILLING_SHARE, type DueSubscription, SubscriptionsRepository } from "../../ports/SubscriptionsRepository.js"
import { Transactions } from "../../ports/Transactions.js"
import { drainLeased } from "../jobs/LeasedDrain.js"
import { traced } from "../observability/Traced.js"
import { BillingRecords } from "./BillingRecords.js"
import { atTime } from "./BillingTime.js"
import type { InvoiceCharges } from "./InvoiceCharges.js"
import type { NativeSubscriptions } from "./NativeSubscriptions.js"

/** A subscription's next period (or the first paid one after a trial), when the billing run finds it due. */
const makePeriodRenewal = (charges: InvoiceCharges) =>
  Effect.gen(function*() {
    const records = yield* BillingRecords
    const plans = yield* PlansRepository
    const transactions = yield* Transactions
    const ids = yield* IdGenerator
    const { chargeAndSettle } = charges

    /** Starts the next period (or the first paid one after a trial): its invoice, then its charge. */
    const renew = (tenant: Tenant, subscription: SubscriptionRecord) =>
      Effect.gen(function*() {
        const time = yield* now
        const pending = subscription.pending_update
        const planId = pending !== null && pending.effective_at.epochMillis <= subscription.current_period_end.epochMillis
          ? pending.plan_id
          : subscription.plan_id
        const plan = yield* Effect.orDie(Effect.flatMap(plans.find(tenant, planId), (option) => option))
        const start = subscription.current_period_end
        const anchor = planId === subscription.plan_id ? subscription.billing_cycle_anchor : start
        const end = DateTime.unsafeMake(nextBoundary(anchor.epochMillis, plan, start.epochMillis))
        const invoiceId = yield* ids.make("in")
        const started = yield* transactions.run(Effect.gen(function*() {
          const locked = yield* records.lockSubscription(tenant, subscription.id)
          // Read before the lock: a cancel, or another run of this renewal, may have come in between.
          if (
            isFinal(locked.status) || locked.cancel_at_period_end !== subscription.cancel_at_period_end ||
            locked.latest_invoice_id !== subscription.latest_invoice_id ||
            locked.current_period_end.epochMillis !== subscription.current_period_end.epochMillis
          ) return false
          yield* records.createInvoice(
            tenant,
            openInvoice({
              id: invoiceId,
              subscription_id: subscription.id,
              customer_id: subscription.customer_id,
              plan_id: plan.id,
              billing_reason: "subscription_cycle",
              amount_due: plan.amount,
              currency: plan.currency,
              period_start: start,
              period_end: end,
              test_clock: subscription.test_clock,
              created_at: time,
              livemode: tenant.livemode
            })
          )
          // Until the charge is settled, the renewal is in flight: looked at again if this run is cut short.
          yield* records.saveSubscription(tenant, locked, {
            latest_invoice_id: invoiceId,
            next_run_at: DateTime.addDuration(time, IN_FLIGHT_RECHECK)
          })
          return true
        }))
        if (started) yield* chargeAndSettle(tenant, subscription.id, invoiceId, "renewal")
      })

    return renew
  })

/**
 * The billing run: the `bill-subscriptions` job claims the subscriptions whose `next_run_at` has come
 * (see `BillingSchedule.dueAt`) and does what is due for each: renewal, dunning retry, trial end, expiry.
 */
export const makeSubscriptionRenewals = (charges: InvoiceCharges, native: NativeSubscriptions) =>
  Effect.gen(function*() {
    const records = yield* BillingRecords
    const repository = yield* SubscriptionsRepository
    const transactions = yield* Transactions
    const { chargeAndSettle, releaseLatestPayment, voidOpenInvoice } = charges
    const renew = yield* makePeriodRenewal(charges)

    const endNow = (tenant: Tenant, subscriptionId: string, input: "period_ended_canceling" | "incomplete_expired") =>
      Effect.zipRight(
        transactions.run(Effect.gen(function*() {
          const locked = yield* records.lockSubscription(tenant, subscriptionId)
          const to = transition(locked.status, input)
          if (to === null) return
          if (input === "incomplete_expired") yield* voidOpenInvoice(tenant, locked)
          yield* records.moveSubscription(tenant, locked, to, {
            next_run_at: null,
            ...(to === "canceled" ? { canceled_at: yield* now, cancel_at_period_end: false } : {})
          })
        })),
        // An expired first charge's 3D Secure must not be completed after the subscription ended.
        releaseLatestPayment(tenant, subscriptionId)
      )

    const runDue = Effect.fn("Subscriptions.runDue")(function*(tenant: Tenant, subscriptionId: string) {
      const subscription = yield* Effect.orDie(records.subscription(tenant, subscriptionId))
      const time = yield* now
      if (subscription.next_run_at === null || DateTime.lessThan(time, subscription.next_run_at)) return
      if (subscription.engine === "native") return yield* native.runNative(tenant, subscriptionId)
      const invoice = subscription.latest_invoice_id === null
        ? null
        : yield* Effect.orDie(records.invoice(tenant, subscription.latest_invoice_id))
      switch (subscription.status) {
        case "incomplete":
          if (!DateTime.lessThan(time, expiryOf(subscription))) yield* endNow(tenant, subscription.id, "incomplete_expired")
          else if (invoice !== null) yield* chargeAndSettle(tenant, subscription.id, invoice.id, "first")
          return
        case "trialing":
        case "active":
          if (invoice !== null && invoice.status === "open") {
            // A renewal cut short: its invoice is finished, not made again.
            yield* chargeAndSettle(tenant, subscription.id, invoice.id, "renewal")
          } else if (subscription.cancel_at_period_end) {
            yield* endNow(tenant, subscription.id, "period_ended_canceling")
          } else {
            yield* renew(tenant, subscription)
          }
          return
        case "past_due":
          if (invoice !== null && invoice.status === "open") yield* chargeAndSettle(tenant, subscription.id, invoice.id, "retry")
          return
        default:
          // Nothing more will happen to it: it is no longer due.
          yield* transactions.run(Effect.flatMap(
            records.lockSubscription(tenant, subscription.id),
            (locked) => records.saveSubscription(tenant, locked, { next_run_at: null })
          ))
      }
    })

    const runClaimed = (due: DueSubscription) =>
      Effect.gen(function*() {
        const subscription = yield* Effect.orDie(records.subscription(due.tenant, due.subscriptionId))
        const step = runDue(due.tenant, due.subscriptionId)
        yield* subscription.test_clock === null ? step : atTime(due.dueAt.epochMillis)(step)
      })

    const billDue = drainLeased({
      claim: repository.claimDue,
      handle: ({ item, token }) => Effect.ensuring(runClaimed(item), repository.release(item.subscriptionId, token)),
      leaseFor: Duration.minutes(2),
      concurrency: 4,
      share: BILLING_SHARE,
      maxPerPass: 500
    }).pipe(traced("Subscriptions.billDue"))

    const job: Job = { name: "bill-subscriptions", every: "5 seconds", run: billDue }
    return { runDue, runClaimed, job }
  })

export type SubscriptionRenewals = Effect.Effect.Success<ReturnType<typeof makeSubscriptionRenewals>>
