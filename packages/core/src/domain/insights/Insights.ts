import { Schema } from "effect"
import { Event } from "../events/Event.js"
import { field } from "../Field.js"
import { Timestamp } from "../Timestamp.js"
import { WebhookDelivery } from "../webhooks/WebhookDelivery.js"

/** One provider in one time bucket: its payment attempts and how they ended. */
export const ProviderBucket = Schema.Struct({
  start: field(Timestamp, "When the bucket starts (ISO 8601 UTC)."),
  /** Attempts made (the volume a provider carried); amounts are not summed across currencies. */
  attempts: field(Schema.NonNegativeInt, "Payment attempts made (amounts are not summed across currencies)."),
  succeeded: field(Schema.NonNegativeInt, "Attempts that succeeded or were authorized."),
  failed: field(Schema.NonNegativeInt, "Attempts that failed."),
  /** `succeeded / (succeeded + failed)`; `null` when no attempt settled. */
  success_rate: field(Schema.NullOr(Schema.Number), "`succeeded / (succeeded + failed)`; `null` when no attempt settled."),
  /** Mean PSP latency of the attempts that have one. */
  latency_ms_avg: field(Schema.NullOr(Schema.NonNegativeInt), "Mean PSP latency of the attempts that have one, in milliseconds, or `null`.")
}).annotations({ identifier: "ProviderBucket" })
export type ProviderBucket = typeof ProviderBucket.Type

export const ProviderStats = Schema.Struct({
  provider: field(Schema.String, "The provider connection (its `name`)."),
  attempts: field(Schema.NonNegativeInt, "Payment attempts made in the window."),
  succeeded: field(Schema.NonNegativeInt, "Attempts that succeeded or were authorized."),
  failed: field(Schema.NonNegativeInt, "Attempts that failed."),
  success_rate: field(Schema.NullOr(Schema.Number), "`succeeded / (succeeded + failed)`; `null` when no attempt settled."),
  latency_ms_avg: field(Schema.NullOr(Schema.NonNegativeInt), "Mean PSP latency, in milliseconds, or `null`."),
  /** Oldest first, one per bucket of the window, empty ones included, so charts need no gap logic. */
  buckets: field(Schema.Array(ProviderBucket), "Oldest first, one per bucket of the window, empty ones included.")
}).annotations({ identifier: "ProviderStats" })
export type ProviderStats = typeof ProviderStats.Type

export const DeliveryCounts = Schema.Struct({
  pending: field(Schema.NonNegativeInt, "Deliveries still waiting for a 2xx."),
  succeeded: field(Schema.NonNegativeInt, "Deliveries a receiver acknowledged."),
  exhausted: field(Schema.NonNegativeInt, "Deliveries whose every retry failed (the dead-letter set).")
}).annotations({ identifier: "DeliveryCounts" })
export type DeliveryCounts = typeof DeliveryCounts.Type

/** What `GET /v1/insights` answers: how each provider did over a window, and how webhooks fared. */
export const Insights = Schema.Struct({
  object: field(Schema.Literal("insights"), "Always `insights`."),
  since: field(Timestamp, "Start of the window (ISO 8601 UTC)."),
  until: field(Timestamp, "End of the window: now."),
  bucket_minutes: field(Schema.Int, "The size of each bucket: 60 up to 48 hours, 1 440 beyond."),
  providers: field(Schema.Array(ProviderStats), "Each provider that carried payments in the window."),
  /** Deliveries created in the window, by status now. */
  deliveries: field(DeliveryCounts, "Webhook deliveries created in the window, by their status now."),
  livemode: field(Schema.Boolean, "The mode of the key that asked.")
}).annotations({ identifier: "Insights" })
export type Insights = typeof Insights.Type

/** A payment's story: its events and its refunds' (oldest first), and the webhook deliveries of those events. */
export const PaymentTimeline = Schema.Struct({
  object: field(Schema.Literal("payment_timeline"), "Always `payment_timeline`."),
  payment_id: field(Schema.String, "The payment (`pay_…`)."),
  events: field(Schema.Array(Event), "Its events and its refunds' events, oldest first (up to 200, kept 30 days)."),
  deliveries: field(Schema.Array(WebhookDelivery), "The webhook deliveries of those events, without their attempts."),
  livemode: field(Schema.Boolean, "The mode of the key that asked.")
}).annotations({ identifier: "PaymentTimeline" })
export type PaymentTimeline = typeof PaymentTimeline.Type
