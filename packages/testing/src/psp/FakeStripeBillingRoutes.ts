import type { PspAnswer } from "./FakePspServer.js"
import { collect, emit, end, invoiceFor, run, timeOf } from "./FakeStripeBillingCycle.js"
import { cardObject, clockObject, customerObject, priceObject, subscriptionObject } from "./FakeStripeBillingObjects.js"
import { addIntervals, type AttachedCard, type BillingState, type Customer, type Price, type Subscription, type TestClock } from "./FakeStripeBillingState.js"
import { missing, stripeErrorAnswer } from "./StripeError.js"

export const createSubscription = (state: BillingState, form: Record<string, any>): PspAnswer => {
  const customer = state.customers.get(String(form.customer ?? ""))
  if (customer === undefined) return missing("customer", String(form.customer))
  const item = Array.isArray(form.items) ? form.items[0] : form.items?.["0"]
  const price = state.prices.get(String(item?.price ?? ""))
  if (price === undefined) return missing("price", String(item?.price))
  const card = form.default_payment_method === undefined ? undefined : state.cards.get(String(form.default_payment_method))
  if (form.default_payment_method !== undefined && (card === undefined || card.customer !== customer.id)) {
    return stripeErrorAnswer(400, "invalid_request_error", "The customer does not have a payment method with the ID given.", {
      code: "resource_missing",
      param: "default_payment_method"
    })
  }
  const at = customer.test_clock === null ? state.options.now() : state.clocks.get(customer.test_clock)!.frozen_time
  const trialEnd = form.trial_end === undefined ? null : Number(form.trial_end)
  if (trialEnd !== null && trialEnd <= at) {
    return stripeErrorAnswer(400, "invalid_request_error", "Invalid timestamp: must be in the future.", { param: "trial_end" })
  }
  const anchor = trialEnd ?? at
  const subscription: Subscription = {
    id: state.options.newId("sub"),
    customer: customer.id,
    price: price.id,
    status: trialEnd === null ? "incomplete" : "trialing",
    default_payment_method: card?.id ?? null,
    metadata: (form.metadata ?? {}) as Record<string, string>,
    created: at,
    billing_cycle_anchor: anchor,
    boundary: trialEnd === null ? 1 : 0,
    current_period_start: at,
    current_period_end: trialEnd ?? addIntervals(anchor, price.interval, price.interval_count),
    trial_start: trialEnd === null ? null : at,
    trial_end: trialEnd,
    cancel_at_period_end: false,
    canceled_at: null,
    ended_at: null,
    latest_invoice: null,
    test_clock: customer.test_clock
  }
  state.subscriptions.set(subscription.id, subscription)
  emit(state, "customer.subscription.created", subscriptionObject(state, subscription), at)
  // The first invoice at once: the trial's, of nothing, or the first period's.
  const invoice = invoiceFor(state, subscription, "subscription_create", trialEnd === null ? price.unit_amount : 0, at, subscription.current_period_end, at, at)
  collect(state, subscription, invoice, at)
  return [200, subscriptionObject(state, subscription)]
}

/** Stripe's answer to a Billing request, or undefined when the request is not one. */
export const handleBilling = (
  state: BillingState,
  method: string,
  parts: ReadonlyArray<string>,
  form: Record<string, any>,
  expand: ReadonlyArray<string> = []
): PspAnswer | undefined => {
  const [, resource, id, action] = parts
  const now = state.options.now()
  if (resource === "test_helpers" && id === "test_clocks") {
    const clockId = action
    if (method === "POST" && clockId === undefined) {
      const clock: TestClock = { id: state.options.newId("clock"), name: form.name ?? null, frozen_time: Number(form.frozen_time), created: now }
      state.clocks.set(clock.id, clock)
      return [200, clockObject(clock)]
    }
    const clock = state.clocks.get(clockId ?? "")
    if (clock === undefined) return missing("test_clock", String(clockId))
    if (method === "GET" && parts.length === 4) return [200, clockObject(clock)]
    if (method === "POST" && parts[4] === "advance") {
      const to = Number(form.frozen_time)
      if (!(to > clock.frozen_time)) {
        return stripeErrorAnswer(400, "invalid_request_error", "The frozen_time must be after the test clock's current frozen_time.", { param: "frozen_time" })
      }
      clock.frozen_time = to
      for (const subscription of state.subscriptions.values()) if (subscription.test_clock === clock.id) run(state, subscription, to)
      return [200, clockObject(clock)]
    }
    return undefined
  }
  if (method === "POST" && resource === "customers" && id === undefined) {
    if (form.test_clock !== undefined && !state.clocks.has(String(form.test_clock))) return missing("test_clock", String(form.test_clock))
    const customer: Customer = {
      id: state.options.newId("cus"),
      email: form.email ?? null,
      name: form.name ?? null,
      test_clock: form.test_clock ?? null,
      metadata: (form.metadata ?? {}) as Record<string, string>,
      created: now
    }
    state.customers.set(customer.id, customer)
    return [200, customerObject(customer)]
  }
  if (method === "POST" && resource === "payment_methods" && action === "attach") {
    const customer = state.customers.get(String(form.customer ?? ""))
    if (customer === undefined) return missing("customer", String(form.customer))
    if (!state.options.knows(id ?? "")) {
      return stripeErrorAnswer(400, "invalid_request_error", `No such PaymentMethod: '${id}'`, { code: "resource_missing", param: "payment_method" })
    }
    const card: AttachedCard = { id: state.options.newId("pm"), source: id!, customer: customer.id, created: now }
    state.cards.set(card.id, card)
    return [200, cardObject(card)]
  }
  if (method === "POST" && resource === "prices" && id === undefined) {
    const price: Price = {
      id: state.options.newId("price"),
      product: state.options.newId("prod"),
      currency: String(form.currency),
      unit_amount: Number(form.unit_amount),
      interval: form.recurring?.interval,
      interval_count: Number(form.recurring?.interval_count ?? 1),
      created: now
    }
    state.prices.set(price.id, price)
    return [200, priceObject(price)]
  }
  if (resource === "subscriptions") {
    if (method === "POST" && id === undefined) return createSubscription(state, form)
    const subscription = state.subscriptions.get(id ?? "")
    if (subscription === undefined) return missing("subscription", String(id))
    if (method === "GET") return [200, subscriptionObject(state, subscription, expand)]
    const at = timeOf(state, subscription)
    if (subscription.status === "canceled") {
      return stripeErrorAnswer(400, "invalid_request_error", "A canceled subscription can only update its cancellation_details and metadata.")
    }
    if (method === "DELETE") {
      subscription.canceled_at = at
      end(state, subscription, at)
      return [200, subscriptionObject(state, subscription)]
    }
    if (method === "POST") {
      if (form.default_payment_method !== undefined) {
        const card = state.cards.get(String(form.default_payment_method))
        if (card === undefined || card.customer !== subscription.customer) return missing("payment_method", String(form.default_payment_method))
        subscription.default_payment_method = card.id
      }
      if (form.cancel_at_period_end !== undefined) {
        subscription.cancel_at_period_end = form.cancel_at_period_end === "true"
        subscription.canceled_at = subscription.cancel_at_period_end ? at : null
      }
      emit(state, "customer.subscription.updated", subscriptionObject(state, subscription), at)
      return [200, subscriptionObject(state, subscription)]
    }
  }
  return undefined
}
