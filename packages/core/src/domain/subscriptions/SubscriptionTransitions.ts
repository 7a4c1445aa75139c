import type { SubscriptionStatus } from "./Subscription.js"

/** What can happen to a subscription, whoever reports it (the worker, the API, a payment's news). */
export type BillingInput =
  | "first_charge_paid"
  | "first_charge_pending"
  | "incomplete_expired"
  | "trial_ended_paid"
  | "trial_ended_failed"
  | "period_renewed_paid"
  | "period_renewed_failed"
  | "retry_failed"
  | "retries_exhausted"
  | "invoice_paid_late"
  | "cancel_now"
  | "period_ended_canceling"
  | "schedule_change"

/** A status nothing moves on from: a canceled or expired subscription takes no more input. */
export const isFinal = (status: SubscriptionStatus): boolean => status === "canceled" || status === "incomplete_expired"

/** What a paid invoice is for a subscription in `status`: its first charge, its trial's end, a renewal, or a late payment. */
export const paidInput = (status: SubscriptionStatus): BillingInput =>
  status === "incomplete"
    ? "first_charge_paid"
    : status === "trialing"
    ? "trial_ended_paid"
    : status === "active"
    ? "period_renewed_paid"
    : "invoice_paid_late"

/**
 * The status an input leads to from `from`, or null where it does not apply (the caller then
 * changes nothing). The one place billing decides statuses; every answer is a row of the table.
 */
export const transition = (from: SubscriptionStatus, input: BillingInput): SubscriptionStatus | null => {
  if (isFinal(from)) return null
  switch (input) {
    case "first_charge_paid":
      return from === "incomplete" ? "active" : null
    case "first_charge_pending":
      return from === "incomplete" ? "incomplete" : null
    case "incomplete_expired":
      return from === "incomplete" ? "incomplete_expired" : null
    case "trial_ended_paid":
      return from === "trialing" ? "active" : null
    case "trial_ended_failed":
      return from === "trialing" ? "past_due" : null
    case "period_renewed_paid":
      return from === "active" ? "active" : null
    case "period_renewed_failed":
      return from === "active" ? "past_due" : null
    case "retry_failed":
      return from === "past_due" ? "past_due" : null
    case "retries_exhausted":
      return from === "past_due" ? "unpaid" : null
    case "invoice_paid_late":
      return from === "incomplete" || from === "past_due" || from === "unpaid" ? "active" : null
    case "cancel_now":
      return "canceled"
    case "period_ended_canceling":
      return from === "active" || from === "trialing" ? "canceled" : null
    case "schedule_change":
      return from
  }
}
