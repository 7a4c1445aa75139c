import { Context, DateTime, Effect, Layer } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import type { Event } from "../events/Event.js"
import type { StoredEvent } from "../events/EventsRepository.js"
import { MemoryStore } from "../memory/MemoryStore.js"
import type { Payment } from "../payments/Payment.js"
import type { WebhookDelivery } from "../webhooks/WebhookDelivery.js"
import { type AttemptTally, tallyAttempt } from "./AttemptTallies.js"
import type { DeliveryCounts } from "./Insights.js"

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
}>() {
  static readonly layerMemory = Layer.effect(
    InsightsRepository,
    Effect.map(MemoryStore, (store) => {
      const mine = (tenant: Tenant, row: { readonly organizationId: string }, livemode: boolean) =>
        row.organizationId === tenant.organizationId && livemode === tenant.livemode
      type DeliveryRow = { readonly organizationId: string; readonly delivery: WebhookDelivery }
      const deliveries = (tenant: Tenant) =>
        [...store.table<DeliveryRow>("webhook_deliveries").values()].filter((row) => mine(tenant, row, row.delivery.livemode))
      return {
        attemptTallies: (tenant, since, bucketMillis) =>
          Effect.sync(() => {
            const tallies = new Map<string, AttemptTally>()
            for (const row of store.table<{ readonly organizationId: string; readonly payment: Payment }>("payments").values()) {
              if (!mine(tenant, row, row.payment.livemode)) continue
              for (const attempt of row.payment.attempts) {
                if (DateTime.lessThan(attempt.created_at, since)) continue
                tallyAttempt(tallies, {
                  provider: attempt.provider,
                  status: attempt.status,
                  latencyMs: attempt.latency_ms,
                  at: attempt.created_at.epochMillis
                }, bucketMillis)
              }
            }
            return [...tallies.values()]
          }),
        deliveryCounts: (tenant, since) =>
          Effect.sync(() => {
            const counts = { pending: 0, succeeded: 0, exhausted: 0 }
            for (const { delivery } of deliveries(tenant)) {
              if (!DateTime.lessThan(delivery.created_at, since)) counts[delivery.status]++
            }
            return counts
          }),
        paymentEvents: (tenant, paymentId) =>
          Effect.sync(() =>
            [...store.table<StoredEvent>("events").values()]
              .filter((row) => mine(tenant, row, row.event.livemode) && isAboutPayment(row.event, paymentId))
              .map((row) => row.event)
              .sort((a, b) => a.created_at.epochMillis - b.created_at.epochMillis || (a.id < b.id ? -1 : 1))
              .slice(0, TIMELINE_LIMIT)
          ),
        deliveriesOf: (tenant, eventIds) =>
          Effect.sync(() =>
            deliveries(tenant)
              .map((row) => row.delivery)
              .filter((delivery) => eventIds.includes(delivery.event_id))
              .sort((a, b) => a.created_at.epochMillis - b.created_at.epochMillis || (a.id < b.id ? -1 : 1))
          )
      }
    })
  )
}
