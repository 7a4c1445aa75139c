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

const DAY_SECONDS = 86_400

/** Days after a renewal's first failure when Stripe tries again; after the last, the subscription ends. */
export const FAKE_STRIPE_RETRY_DAYS: ReadonlyArray<number> = [3, 5, 7]

export type Answer = [status: number, json: unknown]

/** How a card behaves charged off-session: paid, or declined with Stripe's code. */
export type OffSessionCharge = { readonly paid: true } | { readonly paid: false; readonly code: string }

interface TestClock {
  id: string
  name: string | null
  frozen_time: number
  created: number
}

interface Customer {
  id: string
  email: string | null
  name: string | null
  test_clock: string | null
  metadata: Record<string, string>
  created: number
}

interface AttachedCard {
  id: string
  /** The test PaymentMethod it was made from: it decides the charges. */
  source: string
  customer: string
  created: number
}

interface Price {
  id: string
  product: string
  currency: string
  unit_amount: number
  interval: "day" | "week" | "month" | "year"
  interval_count: number
  created: number
}

interface Subscription {
  id: string
  customer: string
  price: string
  status: string
  default_payment_method: string | null
  metadata: Record<string, string>
  created: number
  billing_cycle_anchor: number
  /** `current_period_end` is this many intervals after the anchor (0: the end of a trial, at the anchor). */
  boundary: number
  current_period_start: number
  current_period_end: number
  trial_start: number | null
  trial_end: number | null
  cancel_at_period_end: boolean
  canceled_at: number | null
  ended_at: number | null
  latest_invoice: string | null
  test_clock: string | null
}

interface Invoice {
  id: string
  subscription: string
  customer: string
  billing_reason: "subscription_create" | "subscription_cycle"
  status: "open" | "paid"
  amount_due: number
  currency: string
  attempt_count: number
  first_failure: number | null
  next_payment_attempt: number | null
  line_period: { start: number; end: number }
  /** Stripe's invoice-level period: the one before a renewal's (it bills usage in arrears). */
  period_start: number
  period_end: number
  created: number
}

export interface FakeStripeEvent {
  readonly id: string
  readonly type: string
  readonly created: number
  readonly object: unknown
}

const stripeError = (status: number, type: string, message: string, extra: Record<string, unknown> = {}): Answer => [
  status,
  { error: { type, message, ...extra } }
]

const missing = (kind: string, id: string) =>
  stripeError(404, "invalid_request_error", `No such ${kind}: '${id}'`, { code: "resource_missing", param: "id" })

/** `anchor` plus `count` intervals, keeping the anchor's day of the month where the month has it. */
const addIntervals = (anchor: number, interval: Price["interval"], count: number) => {
  if (interval === "day") return anchor + count * DAY_SECONDS
  if (interval === "week") return anchor + count * 7 * DAY_SECONDS
  const start = new Date(anchor * 1000)
  const months = interval === "month" ? count : count * 12
  const target = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + months, 1, start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds()))
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  target.setUTCDate(Math.min(start.getUTCDate(), lastDay))
  return Math.floor(target.getTime() / 1000)
}

export const makeFakeStripeBilling = (options: {
  readonly newId: (prefix: string) => string
  readonly now: () => number
  /** Whether `token` is a test PaymentMethod Stripe knows. */
  readonly knows: (token: string) => boolean
  readonly chargeOffSession: (token: string) => OffSessionCharge
}) => {
  const { newId } = options
  const clocks = new Map<string, TestClock>()
  const customers = new Map<string, Customer>()
  const cards = new Map<string, AttachedCard>()
  const prices = new Map<string, Price>()
  const subscriptions = new Map<string, Subscription>()
  const invoices = new Map<string, Invoice>()
  const events: Array<FakeStripeEvent> = []
  /** Off-session charges made per subscription, by outcome: what the customer was really charged. */
  const charges: Array<{ subscription: string; invoice: string; amount: number; paid: boolean }> = []

  const timeOf = (subscription: { test_clock: string | null }) =>
    subscription.test_clock === null ? options.now() : clocks.get(subscription.test_clock)!.frozen_time

  const clockObject = (clock: TestClock) => ({
    id: clock.id,
    object: "test_helpers.test_clock",
    created: clock.created,
    deletes_after: clock.created + 30 * DAY_SECONDS,
    frozen_time: clock.frozen_time,
    livemode: false,
    name: clock.name,
    status: "ready"
  })

  const customerObject = (customer: Customer) => ({
    id: customer.id,
    object: "customer",
    created: customer.created,
    email: customer.email,
    name: customer.name,
    livemode: false,
    metadata: customer.metadata,
    test_clock: customer.test_clock
  })

  const cardObject = (card: AttachedCard) => ({
    id: card.id,
    object: "payment_method",
    billing_details: { address: null, email: null, name: null, phone: null },
    created: card.created,
    customer: card.customer,
    livemode: false,
    metadata: {},
    type: "card"
  })

  const priceObject = (price: Price) => ({
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

  const subscriptionObject = (subscription: Subscription, expand: ReadonlyArray<string> = []) => ({
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
        price: priceObject(prices.get(subscription.price)!),
        quantity: 1,
        subscription: subscription.id
      }],
      has_more: false,
      url: `/v1/subscription_items?subscription=${subscription.id}`
    },
    latest_invoice: subscription.latest_invoice !== null && expand.includes("latest_invoice")
      ? invoiceObject(invoices.get(subscription.latest_invoice)!)
      : subscription.latest_invoice,
    livemode: false,
    metadata: subscription.metadata,
    start_date: subscription.created,
    status: subscription.status,
    test_clock: subscription.test_clock,
    trial_end: subscription.trial_end,
    trial_start: subscription.trial_start
  })

  const invoiceObject = (invoice: Invoice) => {
    const subscription = subscriptions.get(invoice.subscription)!
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
          price: priceObject(prices.get(subscription.price)!),
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

  const emit = (type: string, object: unknown, at: number) => events.push({ id: newId("evt"), type, created: at, object })

  const end = (subscription: Subscription, at: number) => {
    subscription.status = "canceled"
    subscription.canceled_at = subscription.canceled_at ?? at
    subscription.ended_at = at
    emit("customer.subscription.deleted", subscriptionObject(subscription), at)
  }

  /** One charge attempt of `invoice` at `at`, off-session with the subscription's card. */
  const collect = (subscription: Subscription, invoice: Invoice, at: number) => {
    const card = subscription.default_payment_method === null ? undefined : cards.get(subscription.default_payment_method)
    const result = invoice.amount_due === 0
      ? { paid: true as const }
      : card === undefined
      ? { paid: false as const, code: "resource_missing" }
      : options.chargeOffSession(card.source)
    invoice.attempt_count++
    if (invoice.amount_due > 0) charges.push({ subscription: subscription.id, invoice: invoice.id, amount: invoice.amount_due, paid: result.paid })
    const before = subscription.status
    if (result.paid) {
      invoice.status = "paid"
      invoice.next_payment_attempt = null
      if (subscription.status !== "trialing" || invoice.amount_due > 0) subscription.status = "active"
      emit("invoice.paid", invoiceObject(invoice), at)
    } else if (invoice.billing_reason === "subscription_create") {
      // A first charge is not retried: the subscription stays incomplete until paid on-session, or expires.
      invoice.next_payment_attempt = null
      subscription.status = "incomplete"
      emit("invoice.payment_failed", invoiceObject(invoice), at)
    } else {
      invoice.first_failure = invoice.first_failure ?? at
      const days = FAKE_STRIPE_RETRY_DAYS[invoice.attempt_count - 1]
      invoice.next_payment_attempt = days === undefined ? null : invoice.first_failure + days * DAY_SECONDS
      subscription.status = "past_due"
      emit("invoice.payment_failed", invoiceObject(invoice), at)
      if (invoice.next_payment_attempt === null) end(subscription, at)
    }
    if (before !== subscription.status && subscription.status !== "canceled") {
      emit("customer.subscription.updated", subscriptionObject(subscription), at)
    }
  }

  const invoiceFor = (subscription: Subscription, reason: Invoice["billing_reason"], amount: number, start: number, end: number, previousStart: number, at: number) => {
    const price = prices.get(subscription.price)!
    const invoice: Invoice = {
      id: newId("in"),
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
    invoices.set(invoice.id, invoice)
    subscription.latest_invoice = invoice.id
    emit("invoice.created", invoiceObject(invoice), at)
    return invoice
  }

  /** Everything due on `subscription` by `until`, each at its own time, oldest first. */
  const run = (subscription: Subscription, until: number) => {
    for (let steps = 0; steps < 1000; steps++) {
      if (subscription.status === "canceled" || subscription.status === "incomplete_expired" || subscription.status === "incomplete") return
      const retry = [...invoices.values()]
        .filter((invoice) => invoice.subscription === subscription.id && invoice.status === "open" && invoice.next_payment_attempt !== null)
        .sort((a, b) => a.next_payment_attempt! - b.next_payment_attempt!)[0]
      const renewal = subscription.current_period_end
      if (retry !== undefined && retry.next_payment_attempt! <= Math.min(until, renewal)) {
        collect(subscription, retry, retry.next_payment_attempt!)
        continue
      }
      if (renewal > until) return
      if (subscription.cancel_at_period_end) {
        end(subscription, renewal)
        return
      }
      const price = prices.get(subscription.price)!
      const previousStart = subscription.current_period_start
      subscription.boundary++
      subscription.current_period_start = renewal
      subscription.current_period_end = addIntervals(subscription.billing_cycle_anchor, price.interval, price.interval_count * subscription.boundary)
      const invoice = invoiceFor(subscription, "subscription_cycle", price.unit_amount, renewal, subscription.current_period_end, previousStart, renewal)
      collect(subscription, invoice, renewal)
    }
  }

  const createSubscription = (form: Record<string, any>): Answer => {
    const customer = customers.get(String(form.customer ?? ""))
    if (customer === undefined) return missing("customer", String(form.customer))
    const item = Array.isArray(form.items) ? form.items[0] : form.items?.["0"]
    const price = prices.get(String(item?.price ?? ""))
    if (price === undefined) return missing("price", String(item?.price))
    const card = form.default_payment_method === undefined ? undefined : cards.get(String(form.default_payment_method))
    if (form.default_payment_method !== undefined && (card === undefined || card.customer !== customer.id)) {
      return stripeError(400, "invalid_request_error", "The customer does not have a payment method with the ID given.", {
        code: "resource_missing",
        param: "default_payment_method"
      })
    }
    const at = customer.test_clock === null ? options.now() : clocks.get(customer.test_clock)!.frozen_time
    const trialEnd = form.trial_end === undefined ? null : Number(form.trial_end)
    if (trialEnd !== null && trialEnd <= at) {
      return stripeError(400, "invalid_request_error", "Invalid timestamp: must be in the future.", { param: "trial_end" })
    }
    const anchor = trialEnd ?? at
    const subscription: Subscription = {
      id: newId("sub"),
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
    subscriptions.set(subscription.id, subscription)
    emit("customer.subscription.created", subscriptionObject(subscription), at)
    // The first invoice at once: the trial's, of nothing, or the first period's.
    const invoice = invoiceFor(subscription, "subscription_create", trialEnd === null ? price.unit_amount : 0, at, subscription.current_period_end, at, at)
    collect(subscription, invoice, at)
    return [200, subscriptionObject(subscription)]
  }

  /** Stripe's answer to a Billing request, or undefined when the request is not one. */
  const handle = (method: string, parts: ReadonlyArray<string>, form: Record<string, any>, expand: ReadonlyArray<string> = []): Answer | undefined => {
    const [, resource, id, action] = parts
    const now = options.now()
    if (resource === "test_helpers" && id === "test_clocks") {
      const clockId = action
      if (method === "POST" && clockId === undefined) {
        const clock: TestClock = { id: newId("clock"), name: form.name ?? null, frozen_time: Number(form.frozen_time), created: now }
        clocks.set(clock.id, clock)
        return [200, clockObject(clock)]
      }
      const clock = clocks.get(clockId ?? "")
      if (clock === undefined) return missing("test_clock", String(clockId))
      if (method === "GET" && parts.length === 4) return [200, clockObject(clock)]
      if (method === "POST" && parts[4] === "advance") {
        const to = Number(form.frozen_time)
        if (!(to > clock.frozen_time)) {
          return stripeError(400, "invalid_request_error", "The frozen_time must be after the test clock's current frozen_time.", { param: "frozen_time" })
        }
        clock.frozen_time = to
        for (const subscription of subscriptions.values()) if (subscription.test_clock === clock.id) run(subscription, to)
        return [200, clockObject(clock)]
      }
      return undefined
    }
    if (method === "POST" && resource === "customers" && id === undefined) {
      if (form.test_clock !== undefined && !clocks.has(String(form.test_clock))) return missing("test_clock", String(form.test_clock))
      const customer: Customer = {
        id: newId("cus"),
        email: form.email ?? null,
        name: form.name ?? null,
        test_clock: form.test_clock ?? null,
        metadata: (form.metadata ?? {}) as Record<string, string>,
        created: now
      }
      customers.set(customer.id, customer)
      return [200, customerObject(customer)]
    }
    if (method === "POST" && resource === "payment_methods" && action === "attach") {
      const customer = customers.get(String(form.customer ?? ""))
      if (customer === undefined) return missing("customer", String(form.customer))
      if (!options.knows(id ?? "")) {
        return stripeError(400, "invalid_request_error", `No such PaymentMethod: '${id}'`, { code: "resource_missing", param: "payment_method" })
      }
      const card: AttachedCard = { id: newId("pm"), source: id!, customer: customer.id, created: now }
      cards.set(card.id, card)
      return [200, cardObject(card)]
    }
    if (method === "POST" && resource === "prices" && id === undefined) {
      const price: Price = {
        id: newId("price"),
        product: newId("prod"),
        currency: String(form.currency),
        unit_amount: Number(form.unit_amount),
        interval: form.recurring?.interval,
        interval_count: Number(form.recurring?.interval_count ?? 1),
        created: now
      }
      prices.set(price.id, price)
      return [200, priceObject(price)]
    }
    if (resource === "subscriptions") {
      if (method === "POST" && id === undefined) return createSubscription(form)
      const subscription = subscriptions.get(id ?? "")
      if (subscription === undefined) return missing("subscription", String(id))
      if (method === "GET") return [200, subscriptionObject(subscription, expand)]
      const at = timeOf(subscription)
      if (subscription.status === "canceled") {
        return stripeError(400, "invalid_request_error", "A canceled subscription can only update its cancellation_details and metadata.")
      }
      if (method === "DELETE") {
        subscription.canceled_at = at
        end(subscription, at)
        return [200, subscriptionObject(subscription)]
      }
      if (method === "POST") {
        if (form.default_payment_method !== undefined) {
          const card = cards.get(String(form.default_payment_method))
          if (card === undefined || card.customer !== subscription.customer) return missing("payment_method", String(form.default_payment_method))
          subscription.default_payment_method = card.id
        }
        if (form.cancel_at_period_end !== undefined) {
          subscription.cancel_at_period_end = form.cancel_at_period_end === "true"
          subscription.canceled_at = subscription.cancel_at_period_end ? at : null
        }
        emit("customer.subscription.updated", subscriptionObject(subscription), at)
        return [200, subscriptionObject(subscription)]
      }
    }
    return undefined
  }

  return {
    handle,
    events,
    charges,
    subscriptions,
    invoices,
    customers,
    /** Runs the subscriptions on Stripe's real clock (not on a test clock) up to now, as Stripe's scheduler does. */
    runDue: () => {
      for (const subscription of subscriptions.values()) if (subscription.test_clock === null) run(subscription, options.now())
    }
  }
}

export type FakeStripeBilling = ReturnType<typeof makeFakeStripeBilling>
