import { DateTime, Effect } from "effect"
import type { Payment } from "../../domain/payments/Payment.js"
import { dueAt, expiryOf, IN_FLIGHT_RECHECK } from "../../domain/subscriptions/BillingSchedule.js"
import { Dunning, nextRetryAt } from "../../domain/subscriptions/DunningSchedule.js"
import type { InvoiceRecord } from "../../domain/subscriptions/Invoice.js"
import { SubscriptionRecord } from "../../domain/subscriptions/Subscription.js"
import { paidInput, transition } from "../../domain/subscriptions/SubscriptionTransitions.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import { Transactions } from "../../ports/Transactions.js"
import { BillingRecords } from "./BillingRecords.js"

/** What a paid or failed period invoice changes on its subscription: the period, and the plan it moved to. */
const periodOf = (subscription: SubscriptionRecord, invoice: InvoiceRecord): Partial<SubscriptionRecord> => {
  if (invoice.period_start.epochMillis < subscription.current_period_start.epochMillis) return {}
  const planChanged = invoice.plan_id !== subscription.plan_id
  return {
    current_period_start: invoice.period_start,
    current_period_end: invoice.period_end,
    plan_id: invoice.plan_id,
    billing_cycle_anchor: planChanged ? invoice.period_start : subscription.billing_cycle_anchor,
    pending_update: subscription.pending_update !== null && subscription.pending_update.plan_id === invoice.plan_id
      ? null
      : subscription.pending_update
  }
}

/** How an invoice ends, and what that does to its subscription: paid, failed (dunning), or void. */
export const makeInvoiceSettlement = Effect.gen(function*() {
  const records = yield* BillingRecords
  const transactions = yield* Transactions

  /** In the transaction that ends a subscription: its open invoice is void, so nothing charges it any more. */
  const voidOpenInvoice = (tenant: Tenant, subscription: SubscriptionRecord) =>
    Effect.gen(function*() {
      if (subscription.latest_invoice_id === null) return
      const invoice = yield* records.lockInvoice(tenant, subscription.latest_invoice_id)
      if (invoice.status === "open") yield* records.moveInvoice(tenant, invoice, "void", { next_payment_attempt: null })
    })
  /**
   * Applies how the invoice's latest payment ended, once: paid → the subscription is (again) active
   * for the invoice's period; failed → `past_due` with the next dunning retry, or `unpaid` once the
   * schedule is spent. A first charge that failed leaves the subscription `incomplete` until it expires.
   */
  const settle = (tenant: Tenant, invoiceId: string, payment: Payment | null) =>
    transactions.run(Effect.gen(function*() {
      let invoice = yield* records.lockInvoice(tenant, invoiceId)
      let subscription = yield* records.lockSubscription(tenant, invoice.subscription_id)
      // Only the invoice's latest payment counts; an older one's news is stale.
      if (payment !== null && invoice.payment_id !== payment.id) return subscription
      if (invoice.status === "paid" || invoice.status === "void") return subscription
      const time = yield* now
      const period = periodOf(subscription, invoice)

      if (payment?.status === "succeeded") {
        invoice = yield* records.moveInvoice(tenant, invoice, "paid", {
          amount_paid: invoice.amount_due,
          next_payment_attempt: null
        })
        const to = transition(subscription.status, paidInput(subscription.status))
        if (to === null) return subscription
        const next = new SubscriptionRecord({ ...subscription, ...period, status: to })
        return yield* records.moveSubscription(tenant, subscription, to, { ...period, next_run_at: dueAt(next, invoice) })
      }

      const inFlight = payment !== null && (payment.status === "created" || payment.status === "processing")
      const awaitingCustomer = payment?.status === "requires_action" && subscription.status === "incomplete"
      if (inFlight || awaitingCustomer) {
        return yield* records.saveSubscription(tenant, subscription, {
          next_run_at: subscription.status === "incomplete" ? expiryOf(subscription) : DateTime.addDuration(time, IN_FLIGHT_RECHECK)
        })
      }

      // Declined, canceled, a challenge nobody is there to complete (off session), or no PSP to ask.
      if (subscription.status === "incomplete") {
        yield* records.moveInvoice(tenant, invoice, "open", { next_payment_attempt: null })
        return yield* records.saveSubscription(tenant, subscription, { next_run_at: expiryOf(subscription) })
      }
      if (invoice.status !== "open") return subscription
      const schedule = yield* Dunning
      const retryMillis = nextRetryAt(schedule, invoice.created_at.epochMillis, invoice.attempt_count)
      const retryAt = retryMillis === null ? null : DateTime.unsafeMake(retryMillis)
      invoice = yield* records.moveInvoice(tenant, invoice, "open", { next_payment_attempt: retryAt })
      if (subscription.status === "trialing" || subscription.status === "active") {
        const to = transition(subscription.status, subscription.status === "trialing" ? "trial_ended_failed" : "period_renewed_failed")
        if (to === null) return subscription
        subscription = yield* records.moveSubscription(tenant, subscription, to, { ...period, next_run_at: retryAt })
      } else {
        subscription = yield* records.saveSubscription(tenant, subscription, { next_run_at: retryAt })
      }
      if (retryAt !== null) return subscription
      yield* records.moveInvoice(tenant, invoice, "uncollectible")
      const exhausted = transition(subscription.status, "retries_exhausted")
      return exhausted === null
        ? subscription
        : yield* records.moveSubscription(tenant, subscription, exhausted, { next_run_at: null })
    }))

  return { voidOpenInvoice, settle }
})
