/**
 * Stripe Billing inside the Stripe fake, written from Stripe's API reference (API version
 * 2020-08-27) and its Billing guides: test clocks, customers, PaymentMethods attached to them,
 * recurring prices and subscriptions. Stripe runs each subscription: the first invoice at once (a
 * zero one for a trial), one per period after, paid off-session with the customer's card; a failed
 * renewal retried 3, 5 and 7 days after its first failure (a custom retry schedule), then the
 * subscription canceled (Stripe's "cancel the subscription" setting). A subscription on a test
 * clock moves only when the clock is advanced. Every change is an event, kept in order for the test
 * to send as Stripe's webhooks.
 */
import { FAKE_STRIPE_RETRY_DAYS, run } from "./FakeStripeBillingCycle.js"
import { handleBilling } from "./FakeStripeBillingRoutes.js"
import type { BillingOptions, BillingState } from "./FakeStripeBillingState.js"

export { FAKE_STRIPE_RETRY_DAYS }
export type { FakeStripeEvent, OffSessionCharge } from "./FakeStripeBillingState.js"

export const makeFakeStripeBilling = (options: BillingOptions) => {
  const state: BillingState = {
    options,
    clocks: new Map(),
    customers: new Map(),
    cards: new Map(),
    prices: new Map(),
    subscriptions: new Map(),
    invoices: new Map(),
    events: [],
    charges: []
  }
  return {
    /** Stripe's answer to a Billing request, or undefined when the request is not one. */
    handle: (method: string, parts: ReadonlyArray<string>, form: Record<string, any>, expand: ReadonlyArray<string> = []) =>
      handleBilling(state, method, parts, form, expand),
    events: state.events,
    charges: state.charges,
    subscriptions: state.subscriptions,
    invoices: state.invoices,
    customers: state.customers,
    /** Runs the subscriptions on Stripe's real clock (not on a test clock) up to now, as Stripe's scheduler does. */
    runDue: () => {
      for (const subscription of state.subscriptions.values()) if (subscription.test_clock === null) run(state, subscription, options.now())
    }
  }
}

export type FakeStripeBilling = ReturnType<typeof makeFakeStripeBilling>
