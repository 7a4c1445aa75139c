import { Schema } from "effect"
import { DisputeFact } from "../disputes/DisputeFact.js"

/**
 * A PSP's webhook notification as stored on arrival (`psev_`): what the connector read from it, to
 * be applied by the worker. Kept as plain data so it survives in the database.
 */
const Card = Schema.Struct({ brand: Schema.NullOr(Schema.String), last4: Schema.NullOr(Schema.String), country: Schema.NullOr(Schema.String) })

export const StoredAuthorizationOutcome = Schema.Union(
  Schema.TaggedStruct("Authorized", { pspPaymentId: Schema.String, captured: Schema.Boolean, amountCaptured: Schema.Int, card: Card }),
  Schema.TaggedStruct("ActionRequired", { pspPaymentId: Schema.String, redirectUrl: Schema.String, card: Card }),
  Schema.TaggedStruct("Refused", {
    pspPaymentId: Schema.NullOr(Schema.String),
    code: Schema.String,
    message: Schema.String,
    retryable: Schema.Boolean,
    card: Card
  }),
  Schema.TaggedStruct("Pending", { pspPaymentId: Schema.String, card: Card }),
  Schema.TaggedStruct("Unknown", {})
)

export const StoredRefundOutcome = Schema.Union(
  Schema.TaggedStruct("Succeeded", { pspRefundId: Schema.String }),
  Schema.TaggedStruct("Pending", { pspRefundId: Schema.String }),
  Schema.TaggedStruct("Failed", { pspRefundId: Schema.NullOr(Schema.String), code: Schema.String, message: Schema.String }),
  Schema.TaggedStruct("Unknown", {})
)

export const StoredProviderEvent = Schema.Union(
  Schema.TaggedStruct("PaymentUpdated", {
    eventId: Schema.String,
    reference: Schema.NullOr(Schema.String),
    pspPaymentId: Schema.NullOr(Schema.String),
    outcome: StoredAuthorizationOutcome
  }),
  Schema.TaggedStruct("RefundUpdated", {
    eventId: Schema.String,
    reference: Schema.NullOr(Schema.String),
    pspRefundId: Schema.NullOr(Schema.String),
    outcome: StoredRefundOutcome
  }),
  Schema.TaggedStruct("SubscriptionUpdated", {
    eventId: Schema.String,
    reference: Schema.String,
    pspSubscriptionId: Schema.String,
    status: Schema.Literal("trialing", "active", "past_due", "unpaid", "canceled", "incomplete_expired"),
    invoice: Schema.NullOr(Schema.Struct({
      pspInvoiceId: Schema.String,
      periodStartMillis: Schema.Number,
      periodEndMillis: Schema.Number,
      amount: Schema.Int,
      currency: Schema.String,
      attempt: Schema.Int,
      outcome: Schema.Literal("paid", "failed"),
      failureCode: Schema.NullOr(Schema.String),
      nextAttemptMillis: Schema.NullOr(Schema.Number),
      firstCharge: Schema.optionalWith(Schema.Boolean, { exact: true })
    }))
  }),
  Schema.TaggedStruct("DisputeUpdated", { eventId: Schema.String, fact: DisputeFact })
)
export type StoredProviderEvent = typeof StoredProviderEvent.Type

/**
 * What applying an event came to, kept with it. `refused`: signed, about our object, but saying what
 * cannot be true of it (a capture larger than the payment); it does not count as the PSP's news, so a
 * later notification with the same PSP id is taken in its place.
 */
export type AppliedOutcome = "applied" | "unmatched" | "refused"
