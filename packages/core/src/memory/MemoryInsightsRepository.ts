import { DateTime, Effect, Layer } from "effect"
import { type AttemptTally, tallyAttempt } from "../domain/insights/AttemptTallies.js"
import type { Payment } from "../domain/payments/Payment.js"
import type { Tenant } from "../domain/Tenant.js"
import type { WebhookDelivery } from "../domain/webhooks/WebhookDelivery.js"
import type { StoredEvent } from "../ports/EventsRepository.js"
import { InsightsRepository, isAboutPayment, TIMELINE_LIMIT } from "../ports/InsightsRepository.js"
import { MemoryStore } from "./MemoryStore.js"

/** `InsightsRepository` in memory: for the core's tests and `CoreMemory`, on the same paths production takes. */
export const MemoryInsightsRepository = Layer.effect(
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
