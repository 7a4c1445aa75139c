import { DateTime, Duration } from "effect"
import type { InvoiceRecord } from "./Invoice.js"
import type { SubscriptionRecord } from "./Subscription.js"

/** A first charge not completed within this time expires the subscription, as in Stripe. */
export const INCOMPLETE_EXPIRY = Duration.hours(23)

/** How long a charge whose answer is still out waits before it is asked about again. */
export const IN_FLIGHT_RECHECK = Duration.hours(1)

export const expiryOf = (subscription: Pick<SubscriptionRecord, "created_at">): DateTime.Utc => DateTime.addDuration(subscription.created_at, INCOMPLETE_EXPIRY)

/**
 * When the schedule next has work for a subscription in this state: the expiry of an incomplete
 * one, the end of a trial or period (renewal, or cancellation at period end), the next dunning
 * retry; null when nothing will happen without a request.
 */
export const dueAt = (
  subscription: Pick<SubscriptionRecord, "status" | "created_at" | "trial_end" | "current_period_end">,
  latestInvoice: Pick<InvoiceRecord, "next_payment_attempt"> | null
): DateTime.Utc | null => {
  switch (subscription.status) {
    case "incomplete":
      return expiryOf(subscription)
    case "trialing":
      return subscription.trial_end ?? subscription.current_period_end
    case "active":
      return subscription.current_period_end
    case "past_due":
      return latestInvoice?.next_payment_attempt ?? null
    case "unpaid":
    case "canceled":
    case "incomplete_expired":
      return null
  }
}
