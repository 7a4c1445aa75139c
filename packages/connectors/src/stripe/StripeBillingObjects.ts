import { type NativeSubscriptionReport, type NativeSubscriptionStatus, ProviderEvent } from "@orchestrator/core"
import { Schema } from "effect"
import { fromStripeAmount } from "./StripeAmounts.js"
import { REFERENCE_KEY } from "./StripeObjects.js"

/** The Stripe objects `engine: native` reads (API version 2020-08-27), the fields it reads. */
export const StripeId = Schema.Struct({ id: Schema.String })

export const StripeSubscription = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("subscription"),
  status: Schema.String,
  customer: Schema.String,
  current_period_end: Schema.Number,
  test_clock: Schema.optional(Schema.NullOr(Schema.String)),
  metadata: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  /** An id, or (asked with `expand[]=latest_invoice`) the invoice, of which we read when it is retried. */
  latest_invoice: Schema.optional(Schema.NullOr(Schema.Union(
    Schema.String,
    Schema.Struct({ status: Schema.optional(Schema.NullOr(Schema.String)), next_payment_attempt: Schema.optional(Schema.NullOr(Schema.Number)) })
  )))
})
export type StripeSubscription = typeof StripeSubscription.Type

export const StripeTestClock = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("test_helpers.test_clock"),
  frozen_time: Schema.Number,
  status: Schema.String
})

/** An invoice as a webhook carries it; its subscription line says which period it bills. */
export const StripeInvoice = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("invoice"),
  subscription: Schema.optional(Schema.NullOr(Schema.String)),
  billing_reason: Schema.optional(Schema.NullOr(Schema.String)),
  amount_due: Schema.Number,
  currency: Schema.String,
  attempt_count: Schema.Number,
  next_payment_attempt: Schema.optional(Schema.NullOr(Schema.Number)),
  lines: Schema.Struct({
    data: Schema.Array(Schema.Struct({
      type: Schema.String,
      // For a subscription line, the subscription's metadata: where our reference is.
      metadata: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
      period: Schema.Struct({ start: Schema.Number, end: Schema.Number })
    }))
  })
})
export type StripeInvoice = typeof StripeInvoice.Type

export const isEnded = (status: string) => status === "canceled" || status === "incomplete_expired"

/**
 * When Stripe next has something to do for `subscription` (in ms): its period's end (a renewal, a
 * trial's or a scheduled cancel's end), or its open invoice's retry if that comes first. Nothing for
 * an ended or an incomplete one (Stripe only expires that).
 */
export const nextDueOf = (subscription: StripeSubscription): number | null => {
  if (isEnded(subscription.status) || subscription.status === "incomplete") return null
  const invoice = subscription.latest_invoice
  const retry = typeof invoice === "object" && invoice !== null && invoice.status === "open" ? invoice.next_payment_attempt ?? null : null
  return Math.min(subscription.current_period_end, retry ?? Infinity) * 1000
}

/**
 * `invoice.paid` or `invoice.payment_failed` in the port's terms. The invoice's own `period_start`
 * and `period_end` are the period before a renewal's (Stripe bills in arrears what it charges in
 * advance); the subscription line's period is the one paid for. A zero invoice (a trial's) is no charge.
 */
export const reportOfInvoice = (eventId: string, invoice: StripeInvoice, paid: boolean): NativeSubscriptionReport | null => {
  const line = invoice.lines.data.find((item) => item.type === "subscription")
  const reference = line?.metadata?.[REFERENCE_KEY]
  if (line === undefined || reference === undefined || invoice.subscription == null || invoice.amount_due === 0) return null
  const nextAttempt = invoice.next_payment_attempt ?? null
  const status: NativeSubscriptionStatus = paid ? "active" : "past_due"
  return ProviderEvent.SubscriptionUpdated({
    eventId,
    reference,
    pspSubscriptionId: invoice.subscription,
    status,
    invoice: {
      pspInvoiceId: invoice.id,
      periodStartMillis: line.period.start * 1000,
      periodEndMillis: line.period.end * 1000,
      amount: fromStripeAmount(invoice.amount_due, invoice.currency),
      currency: invoice.currency.toUpperCase(),
      attempt: Math.max(invoice.attempt_count, 1),
      outcome: paid ? "paid" : "failed",
      // Stripe puts the decline on the invoice's charge, which a webhook does not expand.
      failureCode: null,
      nextAttemptMillis: paid || nextAttempt === null ? null : nextAttempt * 1000,
      firstCharge: invoice.billing_reason === "subscription_create"
    }
  }) as NativeSubscriptionReport
}

/** `customer.subscription.*`: its end is news; its other moves follow an invoice, whose own event tells. */
export const reportOfSubscription = (eventId: string, subscription: StripeSubscription): NativeSubscriptionReport | null => {
  const reference = subscription.metadata?.[REFERENCE_KEY]
  if (reference === undefined || !isEnded(subscription.status)) return null
  return ProviderEvent.SubscriptionUpdated({
    eventId,
    reference,
    pspSubscriptionId: subscription.id,
    status: subscription.status as NativeSubscriptionStatus,
    invoice: null
  }) as NativeSubscriptionReport
}
