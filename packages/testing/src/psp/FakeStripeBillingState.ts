export const DAY_SECONDS = 86_400

/** How a card behaves charged off-session: paid, or declined with Stripe's code. */
export type OffSessionCharge = { readonly paid: true } | { readonly paid: false; readonly code: string }

/** What the Billing fake is given by the Stripe fake around it. */
export interface BillingOptions {
  readonly newId: (prefix: string) => string
  readonly now: () => number
  /** Whether `token` is a test PaymentMethod Stripe knows. */
  readonly knows: (token: string) => boolean
  readonly chargeOffSession: (token: string) => OffSessionCharge
}

export interface TestClock {
  id: string
  name: string | null
  frozen_time: number
  created: number
}

export interface Customer {
  id: string
  email: string | null
  name: string | null
  test_clock: string | null
  metadata: Record<string, string>
  created: number
}

export interface AttachedCard {
  id: string
  /** The test PaymentMethod it was made from: it decides the charges. */
  source: string
  customer: string
  created: number
}

export interface Price {
  id: string
  product: string
  currency: string
  unit_amount: number
  interval: "day" | "week" | "month" | "year"
  interval_count: number
  created: number
}

export interface Subscription {
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

export interface Invoice {
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

/** Everything the Billing fake holds, passed to each of its operations. */
export interface BillingState {
  readonly options: BillingOptions
  readonly clocks: Map<string, TestClock>
  readonly customers: Map<string, Customer>
  readonly cards: Map<string, AttachedCard>
  readonly prices: Map<string, Price>
  readonly subscriptions: Map<string, Subscription>
  readonly invoices: Map<string, Invoice>
  readonly events: Array<FakeStripeEvent>
  /** Off-session charges made per subscription, by outcome: what the customer was really charged. */
  readonly charges: Array<{ subscription: string; invoice: string; amount: number; paid: boolean }>
}

/** `anchor` plus `count` intervals, keeping the anchor's day of the month where the month has it. */
export const addIntervals = (anchor: number, interval: Price["interval"], count: number) => {
  if (interval === "day") return anchor + count * DAY_SECONDS
  if (interval === "week") return anchor + count * 7 * DAY_SECONDS
  const start = new Date(anchor * 1000)
  const months = interval === "month" ? count : count * 12
  const target = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + months, 1, start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds()))
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  target.setUTCDate(Math.min(start.getUTCDate(), lastDay))
  return Math.floor(target.getTime() / 1000)
}
