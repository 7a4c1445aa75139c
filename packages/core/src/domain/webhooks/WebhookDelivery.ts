import { Schema } from "effect"
import { field, optionalField } from "../Field.js"
import { RequestBody } from "../RequestBody.js"
import { Identifier } from "../Text.js"
import { TimeFilter, Timestamp } from "../Timestamp.js"

export const DeliveryStatus = Schema.Literal("pending", "succeeded", "exhausted")
export type DeliveryStatus = typeof DeliveryStatus.Type

/** One try to hand an event to an endpoint, as the receiver answered it (or did not). */
export class WebhookAttempt extends Schema.Class<WebhookAttempt>("WebhookAttempt")({
  object: field(Schema.Literal("webhook_delivery_attempt"), "Always `webhook_delivery_attempt`."),
  id: field(Schema.String, "The attempt's id."),
  attempted_at: field(Timestamp, "When it was sent (ISO 8601 UTC)."),
  /** The receiver's HTTP status; `null` when there was no answer (timeout, refused, unreachable). */
  response_status: field(Schema.NullOr(Schema.Int), "The receiver's HTTP status; `null` when there was no answer (timeout, refused, unreachable)."),
  /** Why the attempt failed, when it did: the status, a timeout, a connection error. */
  error: field(Schema.NullOr(Schema.String), "Why the attempt failed (the status, a timeout, a connection error), or `null`."),
  duration_ms: field(Schema.NonNegativeInt, "How long it took, in milliseconds."),
  /** The first 1 KiB of what the receiver answered. */
  response_body: field(Schema.NullOr(Schema.String), "The first KiB of what the receiver answered, or `null`.")
}) {}

/** An event on its way to one endpoint: pending until a 2xx, exhausted once every retry is used. */
export class WebhookDelivery extends Schema.Class<WebhookDelivery>("WebhookDelivery")({
  object: field(Schema.Literal("webhook_delivery"), "Always `webhook_delivery`."),
  id: field(Schema.String, "The delivery's id (`whev_…`), also sent as `Service-Delivery-Id`."),
  event_id: field(Schema.String, "The event delivered (`evt_…`)."),
  endpoint_id: field(Schema.String, "The endpoint it goes to (`whe_…`)."),
  type: field(Schema.String, "The event's type."),
  status: field(DeliveryStatus, "`pending` (waiting for a 2xx, retried on schedule), `succeeded`, or `exhausted` (every retry failed: the dead-letter set)."),
  attempt_count: field(Schema.NonNegativeInt, "How many attempts were made."),
  last_response_status: field(Schema.NullOr(Schema.Int), "The status the receiver last answered, or `null`."),
  last_error: field(Schema.NullOr(Schema.String), "Why the last attempt failed, or `null`."),
  next_attempt_at: field(Schema.NullOr(Timestamp), "When the next attempt is due, or `null`."),
  delivered_at: field(Schema.NullOr(Timestamp), "When a 2xx was received, or `null`."),
  created_at: field(Timestamp, "When the delivery was created (ISO 8601 UTC)."),
  livemode: field(Schema.Boolean, "`true` for live mode, `false` for test mode."),
  /** The event, exactly as it is sent. */
  payload: field(Schema.Unknown, "The event, exactly as it is sent."),
  /** Every attempt, oldest first: present when one delivery is retrieved, `null` in lists. */
  attempts: field(Schema.NullOr(Schema.Array(WebhookAttempt)), "Every attempt, oldest first, when one delivery is retrieved; `null` in lists.")
}) {}

export const DeliveryListFilter = Schema.Struct({
  status: Schema.optional(DeliveryStatus),
  type: Schema.optional(Identifier),
  endpoint_id: Schema.optional(Identifier)
})
export type DeliveryListFilter = typeof DeliveryListFilter.Type

/** Which deliveries a bulk resend takes: by default, the dead-letter set (`exhausted`). */
export const ResendDeliveries = RequestBody("ResendDeliveries", {
  status: optionalField(DeliveryStatus, "Resend deliveries in this status; default `exhausted`."),
  endpoint_id: optionalField(Identifier, "Only deliveries to this endpoint (`whe_…`)."),
  type: optionalField(Identifier, "Only deliveries of this event type."),
  /** Deliveries created at or after this time; `created[gte]` is the same, as the lists spell it. */
  created_after: optionalField(TimeFilter, "Only deliveries created at or after this time (ISO 8601)."),
  "created[gte]": optionalField(TimeFilter, "The same as `created_after`, as the lists spell it.")
})
export type ResendDeliveries = typeof ResendDeliveries.Type

/** How many deliveries a bulk resend queued. */
export const ResendResult = Schema.Struct({
  object: field(Schema.Literal("webhook_delivery_resend"), "Always `webhook_delivery_resend`."),
  queued: field(Schema.NonNegativeInt, "How many deliveries were queued to be sent again.")
}).annotations({ identifier: "ResendResult" })
