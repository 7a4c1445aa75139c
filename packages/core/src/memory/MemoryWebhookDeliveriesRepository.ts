import { DateTime, Effect, Layer, Option } from "effect"
import type { CausingRequest } from "../domain/events/CausingRequest.js"
import type { Leased } from "../domain/LeasedWork.js"
import type { Tenant } from "../domain/Tenant.js"
import { deliveryShare, endpointCap, type EndpointHealth, WebhookDeliveryPolicy } from "../domain/webhooks/EndpointHealth.js"
import { type WebhookAttempt, WebhookDelivery } from "../domain/webhooks/WebhookDelivery.js"
import { type AttemptRecord, type DueDelivery, eventOrder, WebhookDeliveriesRepository } from "../ports/WebhookDeliveriesRepository.js"
import { memoryLeases } from "./MemoryLeases.js"
import { pageOf } from "./MemoryPaging.js"
import { MemoryStore } from "./MemoryStore.js"

/** A delivery never attempted yet of an earlier event of the same object, to the same endpoint. */
const isHeldBack = (all: Iterable<MemoryRow>, row: MemoryRow) =>
  row.objectId !== null && [...all].some((other) =>
    other.objectId === row.objectId && other.delivery.endpoint_id === row.delivery.endpoint_id &&
    other.delivery.status === "pending" && other.delivery.attempt_count === 0 &&
    eventOrder(
      { eventCreatedAt: other.eventCreatedAt, eventId: other.delivery.event_id },
      { eventCreatedAt: row.eventCreatedAt, eventId: row.delivery.event_id }
    )
  )

/** A delivery as the memory store keeps it, with what the SQL store keeps in columns beside it. */
interface MemoryRow {
  readonly organizationId: string
  readonly delivery: WebhookDelivery
  readonly payload: string
  readonly objectId: string | null
  readonly eventCreatedAt: DateTime.Utc
  readonly cause: CausingRequest | null
  readonly attempts: ReadonlyArray<WebhookAttempt>
}

/** `WebhookDeliveriesRepository` in memory: for the core's tests and `CoreMemory`, on the same paths production takes. */
export const MemoryWebhookDeliveriesRepository = Layer.effect(
  WebhookDeliveriesRepository,
  Effect.map(MemoryStore, (store) => {
    const heldBack = (row: MemoryRow) => isHeldBack(rows().values(), row)
    const rows = () => store.table<MemoryRow>("webhook_deliveries")
    const leases = memoryLeases(store, "webhook_deliveries")
    const recordAttempt = ({ item, token }: Leased<DueDelivery>, record: AttemptRecord) =>
      Effect.sync(() => {
        const row = rows().get(item.deliveryId)
        if (row === undefined || !leases.holds(item.deliveryId, token)) return false
        const { attempt } = record
        rows().set(item.deliveryId, {
          ...row,
          attempts: [...row.attempts, attempt],
          delivery: new WebhookDelivery({
            ...row.delivery,
            status: record.status,
            attempt_count: row.delivery.attempt_count + 1,
            last_response_status: attempt.response_status,
            last_error: attempt.error,
            next_attempt_at: record.nextAttemptAt,
            delivered_at: record.status === "succeeded" ? attempt.attempted_at : row.delivery.delivered_at
          })
        })
        leases.release(item.deliveryId)
        return true
      })
    const mine = (tenant: Tenant) =>
      [...rows().values()].filter((row) => row.organizationId === tenant.organizationId && row.delivery.livemode === tenant.livemode)
    const requeue = (row: MemoryRow, at: DateTime.Utc) =>
      rows().set(row.delivery.id, {
        ...row,
        delivery: new WebhookDelivery({ ...row.delivery, status: "pending", next_attempt_at: at })
      })
    return {
      insertAll: (made) =>
        Effect.sync(() => {
          for (const { cause, delivery, eventCreatedAt, objectId, payload, tenant } of made) {
            const duplicate = [...rows().values()].some((row) =>
              row.delivery.event_id === delivery.event_id && row.delivery.endpoint_id === delivery.endpoint_id
            )
            if (!duplicate) {
              rows().set(delivery.id, { organizationId: tenant.organizationId, delivery, payload, objectId, eventCreatedAt, cause, attempts: [] })
            }
          }
        }),
      find: (tenant, id) =>
        Effect.sync(() =>
          Option.map(
            Option.fromNullable(mine(tenant).find((row) => row.delivery.id === id)),
            (row) => new WebhookDelivery({ ...row.delivery, attempts: row.attempts })
          )
        ),
      list: (tenant, filter, page) =>
        pageOf(
          mine(tenant).map((row) => row.delivery),
          (delivery) =>
            (filter.status === undefined || delivery.status === filter.status) &&
            (filter.type === undefined || delivery.type === filter.type) &&
            (filter.endpoint_id === undefined || delivery.endpoint_id === filter.endpoint_id),
          page
        ),
      claimDue: (lease) =>
        Effect.sync(() => {
          const share = lease.share ?? deliveryShare(WebhookDeliveryPolicy.defaultValue())
          const endpoints = store.table<{ readonly endpoint: { readonly status: string }; readonly health: EndpointHealth }>("webhook_endpoints")
          const waiting = [...rows().values()]
            .filter((row) => row.delivery.status === "pending" && row.delivery.next_attempt_at !== null)
            .sort((a, b) =>
              a.delivery.next_attempt_at!.epochMillis - b.delivery.next_attempt_at!.epochMillis ||
              (a.delivery.id < b.delivery.id ? -1 : 1)
            )
          return leases.claimFair(
            "due",
            waiting.map((row) => ({
              id: row.delivery.id,
              lane: [row.organizationId, row.delivery.livemode, row.delivery.endpoint_id] as const,
              waiting: true,
              due: !DateTime.lessThan(lease.now, row.delivery.next_attempt_at!) && !heldBack(row),
              item: {
                tenant: { organizationId: row.organizationId, livemode: row.delivery.livemode },
                deliveryId: row.delivery.id,
                endpointId: row.delivery.endpoint_id,
                eventId: row.delivery.event_id,
                objectId: row.objectId,
                payload: row.payload,
                attemptCount: row.delivery.attempt_count,
                cause: row.cause
              }
            })),
            lease,
            share,
            (lane) => {
              const found = endpoints.get(lane[2]!)
              return found === undefined ? 0 : endpointCap({ status: found.endpoint.status, health: found.health }, lease.now, share.perLane)
            }
          )
        }),
      recordAttempt,
      recordAttempts: (attempts) => Effect.forEach(attempts, ({ leased, record }) => recordAttempt(leased, record), { discard: true }),
      resend: (tenant, id, at) =>
        Effect.sync(() => {
          const row = mine(tenant).find((candidate) => candidate.delivery.id === id)
          if (row === undefined) return Option.none()
          requeue(row, at)
          return Option.some(rows().get(id)!.delivery)
        }),
      resendMatching: (tenant, filter, at) =>
        Effect.sync(() => {
          const matching = mine(tenant).filter(({ delivery }) =>
            delivery.status !== "pending" &&
            (filter.status === undefined ? delivery.status === "exhausted" : delivery.status === filter.status) &&
            (filter.endpoint_id === undefined || delivery.endpoint_id === filter.endpoint_id) &&
            (filter.type === undefined || delivery.type === filter.type) &&
            (filter["created[gte]"] === undefined || !DateTime.lessThan(delivery.created_at, filter["created[gte]"]))
          )
          for (const row of matching) requeue(row, at)
          return matching.length
        })
    }
  })
)
