import {
  type AttachedCard,
  type BillingState,
  type Customer,
  DAY_SECONDS,
  type Invoice,
  type Price,
  type Subscription,
  type TestClock
} from "./FakeStripeBillingState.js"

/** The Billing objects as Stripe shows them (API version 2020-08-27). */

export const clockObject = (clock: TestClock) => ({
  id: clock.id,
  object: "test_helpers.test_clock",
  created: clock.created,
  deletes_after: clock.created + 30 * DAY_SECONDS,
  frozen_time: clock.frozen_time,
  livemode: false,
  name: clock.name,
  status: "ready"
})

export const customerObject = (customer: Customer) => ({
  id: customer.id,
  object: "customer",
  created: customer.created,
  email: customer.email,
  name: customer.name,
  livemode: false,
  metadata: customer.metadata,
  test_clock: customer.test_clock
})

export const cardObject = (card: AttachedCard) => ({
  id: card.id,
  object: "payment_method",
  billing_details: { address: null, email: null, name: null, phone: null },
  created: card.created,
  customer: card.customer,
  livemode: false,
  metadata: {},
  type: "card"
})

export const priceObject = (price: Price) => ({
  id: price.id,
  object: "price",
  active: true,
  billing_scheme: "per_unit",
  created: price.created,
  currency: price.currency,
  livemode: false,
  lookup_key: null,
  metadata: {},
  nickname: null,
  product: price.product,
  recurring: { aggregate_usage: null, interval: price.interval, interval_count: price.interval_count, trial_period_days: null, usage_type: "licensed" },
  type: "recurring",
  unit_amount: price.unit_amount
})

export const subscriptionObject = (state: BillingState, subscription: Subscription, expand: ReadonlyArray<string> = []) => ({
  id: subscription.id,
  object: "subscription",
  automatic_tax: { enabled: false },
  billing_cycle_anchor: subscription.billing_cycle_anchor,
  cancel_at_period_end: subscription.cancel_at_period_end,
  canceled_at: subscription.canceled_at,
  collection_method: "charge_automatically",
  created: subscription.created,
  current_period_end: subscription.current_period_end,
  current_period_start: subscription.current_period_start,
  customer: subscription.customer,
  default_payment_method: subscription.default_payment_method,
  ended_at: subscription.ended_at,
  items: {
    object: "list",
    data: [{
      id: `si_${subscription.id.slice(4)}`,
      object: "subscription_item",
      created: subscription.created,
      metadata: {},
      price: priceObject(state.prices.get(subscription.price)!),
      quantity: 1,
      subscription: subscription.id
    }],
    has_more: false,
    url: `/v1/subscription_items?subscription=${subscription.id}`
  },
  latest_invoice: subscription.latest_invoice !== null && expand.includes("latest_invoice")
    ? invoiceObject(state, state.invoices.get(subscription.latest_invoice)!)
    : subscription.latest_invoice,
  livemode: false,
  metadata: subscription.metadata,
  start_date: subscription.created,
  status: subscription.status,
  test_clock: subscription.test_clock,
  trial_end: subscription.trial_end,
  trial_start: subscription.trial_start
})

export const invoiceObject = (state: BillingState, invoice: Invoice) => {
  const subscription = state.subscriptions.get(invoice.subscription)!
  const paid = invoice.status === "paid"
  return {
    id: invoice.id,
    object: "invoice",
    amount_due: invoice.amount_due,
    amount_paid: paid ? invoice.amount_due : 0,
    amount_remaining: paid ? 0 : invoice.amount_due,
    attempt_count: invoice.attempt_count,
    attempted: invoice.attempt_count > 0,
    automatic_tax: { enabled: false, status: null },
    billing_reason: invoice.billing_reason,
    collection_method: "charge_automatically",
    created: invoice.created,
    currency: invoice.currency,
    customer: invoice.customer,
    default_tax_rates: [],
    lines: {
      object: "list",
      data: [{
        id: `il_${invoice.id.slice(3)}`,
        object: "line_item",
        amount: invoice.amount_due,
        currency: invoice.currency,
        discountable: true,
        livemode: false,
        metadata: subscription.metadata,
        period: invoice.line_period,
        price: priceObject(state.prices.get(subscription.price)!),
        proration: false,
        quantity: 1,
        subscription: subscription.id,
        type: "subscription"
      }],
      has_more: false,
      url: `/v1/invoices/${invoice.id}/lines`
    },
    livemode: false,
    next_payment_attempt: invoice.next_payment_attempt,
    paid,
    paid_out_of_band: false,
    payment_settings: { payment_method_options: null, payment_method_types: null },
    period_end: invoice.period_end,
    period_start: invoice.period_start,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    starting_balance: 0,
    status: invoice.status,
    status_transitions: { finalized_at: invoice.created, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subscription: subscription.id,
    subtotal: invoice.amount_due,
    total: invoice.amount_due,
    total_tax_amounts: [],
    test_clock: subscription.test_clock
  }
}
