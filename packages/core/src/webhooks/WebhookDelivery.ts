import { Schema } from "effect"
import { RequestBody } from "../domain/RequestBody.js"
import { Identifier } from "../domain/Text.js"
import { TimeFilter, Timestamp } from "../domain/Timestamp.js"

export const DeliveryStatus = Schema.Literal("pending", "succeeded", "exhausted")
export type DeliveryStatus = typeof DeliveryStatus.Type

/** One try to hand an event to an endpoint, as the receiver answered it (or did not). */
export class WebhookAttempt extends Schema.Class<WebhookAttempt>("WebhookAttempt")({
  object: Schema.Literal("webhook_delivery_attempt"),
  id: Schema.String,
  attempted_at: Timestamp,
  /** The receiver's HTTP status; `null` when there was no answer (timeout, refused, unreachable). */
  response_status: Schema.NullOr(Schema.Int),
  /** Why the attempt failed, when it did: the status, a timeout, a connection error. */
  error: Schema.NullOr(Schema.String),
  duration_ms: Schema.NonNegativeInt,
  /** The first 1 KiB of what the receiver answered. */
  response_body: Schema.NullOr(Schema.String)
}) {}

/** An event on its way to one endpoint: pending until a 2xx, exhausted once every retry is used. */
export class WebhookDelivery extends Schema.Class<WebhookDelivery>("WebhookDelivery")({
  object: Schema.Literal("webhook_delivery"),
  id: Schema.String,
  event_id: Schema.String,
  endpoint_id: Schema.String,
  type: Schema.String,
  status: DeliveryStatus,
  attempt_count: Schema.NonNegativeInt,
  last_response_status: Schema.NullOr(Schema.Int),
  last_error: Schema.NullOr(Schema.String),
  next_attempt_at: Schema.NullOr(Timestamp),
  delivered_at: Schema.NullOr(Timestamp),
  created_at: Timestamp,
  livemode: Schema.Boolean,
  /** The event, exactly as it is sent. */
  payload: Schema.Unknown,
  /** Every attempt, oldest first: present when one delivery is retrieved, `null` in lists. */
  attempts: Schema.NullOr(Schema.Array(WebhookAttempt))
}) {}

export const DeliveryListFilter = Schema.Struct({
  status: Schema.optional(DeliveryStatus),
  type: Schema.optional(Identifier),
  endpoint_id: Schema.optional(Identifier)
})
export type DeliveryListFilter = typeof DeliveryListFilter.Type

/** Which deliveries a bulk resend takes: by default, the dead-letter set (`exhausted`). */
export const ResendDeliveries = RequestBody("ResendDeliveries", {
  status: Schema.optional(DeliveryStatus),
  endpoint_id: Schema.optional(Identifier),
  type: Schema.optional(Identifier),
  /** Deliveries created at or after this time; `created[gte]` is the same, as the lists spell it. */
  created_after: Schema.optional(TimeFilter),
  "created[gte]": Schema.optional(TimeFilter)
})
export type ResendDeliveries = typeof ResendDeliveries.Type

/** How many deliveries a bulk resend queued. */
export const ResendResult = Schema.Struct({
  object: Schema.Literal("webhook_delivery_resend"),
  queued: Schema.NonNegativeInt
}).annotations({ identifier: "ResendResult" })
