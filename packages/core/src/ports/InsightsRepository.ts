import { Context, DateTime, Effect } from "effect"
import type { Event } from "../domain/events/Event.js"
import type { AttemptTally } from "../domain/insights/AttemptTallies.js"
import type { DeliveryCounts } from "../domain/insights/Insights.js"
import type { Tenant } from "../domain/Tenant.js"
import type { WebhookDelivery } from "../domain/webhooks/WebhookDelivery.js"

/** The most events a payment's timeline shows (a payment has a handful; a bound keeps it cheap). */
export const TIMELINE_LIMIT = 200

/** Whether an event is about this payment: the payment itself, or one of its refunds. */
export const isAboutPayment = (event: Event, paymentId: string) =>
  event.data.object.id === paymentId || ("payment_id" in event.data.object && event.data.object.payment_id === paymentId)

/**
 * Read-only questions across capabilities for the dashboard: counts over a time window and a
 * payment's events with their deliveries. Storage answers them in one query each.
 */
export class InsightsRepository extends Context.Tag("core/InsightsRepository")<InsightsRepository, {
  /** Payment attempts made since `since`, counted per provider and per bucket of `bucketMillis`. */
  readonly attemptTallies: (tenant: Tenant, since: DateTime.Utc, bucketMillis: number) => Effect.Effect<ReadonlyArray<AttemptTally>>
  /** Deliveries created since `since`, by their status now. */
  readonly deliveryCounts: (tenant: Tenant, since: DateTime.Utc) => Effect.Effect<DeliveryCounts>
  /** The events of a payment and of its refunds, oldest first, at most `TIMELINE_LIMIT`. */
  readonly paymentEvents: (tenant: Tenant, paymentId: string) => Effect.Effect<ReadonlyArray<Event>>
  /** The deliveries of these events, oldest first, without their attempts. */
  readonly deliveriesOf: (tenant: Tenant, eventIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<WebhookDelivery>>
}>() {}
