import { Schema } from "effect"
import { Timestamp } from "../domain/Timestamp.js"
import { Event } from "../events/Event.js"
import { WebhookDelivery } from "../webhooks/WebhookDelivery.js"

/** One provider in one time bucket: its payment attempts and how they ended. */
export const ProviderBucket = Schema.Struct({
  start: Timestamp,
  /** Attempts made (the volume a provider carried); amounts are not summed across currencies. */
  attempts: Schema.NonNegativeInt,
  succeeded: Schema.NonNegativeInt,
  failed: Schema.NonNegativeInt,
  /** `succeeded / (succeeded + failed)`; `null` when no attempt settled. */
  success_rate: Schema.NullOr(Schema.Number),
  /** Mean PSP latency of the attempts that have one. */
  latency_ms_avg: Schema.NullOr(Schema.NonNegativeInt)
}).annotations({ identifier: "ProviderBucket" })
export type ProviderBucket = typeof ProviderBucket.Type

export const ProviderStats = Schema.Struct({
  provider: Schema.String,
  attempts: Schema.NonNegativeInt,
  succeeded: Schema.NonNegativeInt,
  failed: Schema.NonNegativeInt,
  success_rate: Schema.NullOr(Schema.Number),
  latency_ms_avg: Schema.NullOr(Schema.NonNegativeInt),
  /** Oldest first, one per bucket of the window, empty ones included, so charts need no gap logic. */
  buckets: Schema.Array(ProviderBucket)
}).annotations({ identifier: "ProviderStats" })
export type ProviderStats = typeof ProviderStats.Type

export const DeliveryCounts = Schema.Struct({
  pending: Schema.NonNegativeInt,
  succeeded: Schema.NonNegativeInt,
  exhausted: Schema.NonNegativeInt
}).annotations({ identifier: "DeliveryCounts" })
export type DeliveryCounts = typeof DeliveryCounts.Type

/** What `GET /v1/insights` answers: how each provider did over a window, and how webhooks fared. */
export const Insights = Schema.Struct({
  object: Schema.Literal("insights"),
  since: Timestamp,
  until: Timestamp,
  bucket_minutes: Schema.Int,
  providers: Schema.Array(ProviderStats),
  /** Deliveries created in the window, by status now. */
  deliveries: DeliveryCounts,
  livemode: Schema.Boolean
}).annotations({ identifier: "Insights" })
export type Insights = typeof Insights.Type

/** A payment's story: its events and its refunds' (oldest first), and the webhook deliveries of those events. */
export const PaymentTimeline = Schema.Struct({
  object: Schema.Literal("payment_timeline"),
  payment_id: Schema.String,
  events: Schema.Array(Event),
  deliveries: Schema.Array(WebhookDelivery),
  livemode: Schema.Boolean
}).annotations({ identifier: "PaymentTimeline" })
export type PaymentTimeline = typeof PaymentTimeline.Type
