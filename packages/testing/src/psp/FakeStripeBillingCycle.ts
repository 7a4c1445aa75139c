import { invoiceObject, subscriptionObject } from "./FakeStripeBillingObjects.js"
import { addIntervals, type BillingState, DAY_SECONDS, type Invoice, type Subscription } from "./FakeStripeBillingState.js"

/** Days after a renewal's first failure when Stripe tries again; after the last, the subscription ends. */
export const FAKE_STRIPE_RETRY_DAYS: ReadonlyArray<number> = [3, 5, 7]

export const timeOf = (state: BillingState, subscription: { test_clock: string | null }) =>
  subscription.test_clock === null ? state.options.now() : state.clocks.get(subscription.test_clock)!.frozen_time

export const emit = (state: BillingState, type: string, object: unknown, at: number) =>
  state.events.push({ id: state.options.newId("evt"), type, created: at, object })

export const end = (state: BillingState, subscription: Subscription, at: number) => {
  subscription.status = "canceled"
  subscription.canceled_at = subscription.canceled_at ?? at
  subscription.ended_at = at
  emit(state, "customer.subscription.deleted", subscriptionObject(state, subscription), at)
}

/** One charge attempt of `invoice` at `at`, off-session with the subscription's card. */
export const collect = (state: BillingState, subscription: Subscription, invoice: Invoice, at: number) => {
  const card = subscription.default_payment_method === null ? undefined : state.cards.get(subscription.default_payment_method)
  const result = invoice.amount_due === 0
    ? { paid: true as const }
    : card === undefined
    ? { paid: false as const, code: "resource_missing" }
    : state.options.chargeOffSession(card.source)
  invoice.attempt_count++
  if (invoice.amount_due > 0) state.charges.push({ subscription: subscription.id, invoice: invoice.id, amount: invoice.amount_due, paid: result.paid })
  const before = subscription.status
  if (result.paid) {
    invoice.status = "paid"
    invoice.next_payment_attempt = null
    if (subscription.status !== "trialing" || invoice.amount_due > 0) subscription.status = "active"
    emit(state, "invoice.paid", invoiceObject(state, invoice), at)
  } else if (invoice.billing_reason === "subscription_create") {
    // A first charge is not retried: the subscription stays incomplete until paid on-session, or expires.
    invoice.next_payment_attempt = null
    subscription.status = "incomplete"
    emit(state, "invoice.payment_failed", invoiceObject(state, invoice), at)
  } else {
    invoice.first_failure = invoice.first_failure ?? at
    const days = FAKE_STRIPE_RETRY_DAYS[invoice.attempt_count - 1]
    invoice.next_payment_attempt = days === undefined ? null : invoice.first_failure + days * DAY_SECONDS
    subscription.status = "past_due"
    emit(state, "invoice.payment_failed", invoiceObject(state, invoice), at)
    if (invoice.next_payment_attempt === null) end(state, subscription, at)
  }
  if (before !== subscription.status && subscription.status !== "canceled") {
    emit(state, "customer.subscription.updated", subscriptionObject(state, subscription), at)
  }
}

export const invoiceFor = (
  state: BillingState,
  subscription: Subscription,
  reason: Invoice["billing_reason"],
  amount: number,
  start: number,
  end: number,
  previousStart: number,
  at: number
) => {
  const price = state.prices.get(subscription.price)!
  const invoice: Invoice = {
    id: state.options.newId("in"),
    subscription: subscription.id,
    customer: subscription.customer,
    billing_reason: reason,
    status: "open",
    amount_due: amount,
    currency: price.currency,
    attempt_count: 0,
    first_failure: null,
    next_payment_attempt: null,
    line_period: { start, end },
    period_start: previousStart,
    period_end: start,
    created: at
  }
  state.invoices.set(invoice.id, invoice)
  subscription.latest_invoice = invoice.id
  emit(state, "invoice.created", invoiceObject(state, invoice), at)
  return invoice
}

/** Everything due on `subscription` by `until`, each at its own time, oldest first. */
export const run = (state: BillingState, subscription: Subscription, until: number) => {
  for (let steps = 0; steps < 1000; steps++) {
    if (subscription.status === "canceled" || subscription.status === "incomplete_expired" || subscription.status === "incomplete") return
    const retry = [...state.invoices.values()]
      .filter((invoice) => invoice.subscription === subscription.id && invoice.status === "open" && invoice.next_payment_attempt !== null)
      .sort((a, b) => a.next_payment_attempt! - b.next_payment_attempt!)[0]
    const renewal = subscription.current_period_end
    if (retry !== undefined && retry.next_payment_attempt! <= Math.min(until, renewal)) {
      collect(state, subscription, retry, retry.next_payment_attempt!)
      continue
    }
    if (renewal > until) return
    if (subscription.cancel_at_period_end) {
      end(state, subscription, renewal)
      return
    }
    const price = state.prices.get(subscription.price)!
    const previousStart = subscription.current_period_start
    subscription.boundary++
    subscription.current_period_start = renewal
    subscription.current_period_end = addIntervals(subscription.billing_cycle_anchor, price.interval, price.interval_count * subscription.boundary)
    const invoice = invoiceFor(state, subscription, "subscription_cycle", price.unit_amount, renewal, subscription.current_period_end, previousStart, renewal)
    collect(state, subscription, invoice, renewal)
  }
}
