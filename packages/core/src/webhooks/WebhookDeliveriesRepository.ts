import { Context, DateTime, Effect, Layer, Option } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import { memoryLeases } from "../memory/MemoryLeases.js"
import { pageOf } from "../memory/MemoryPaging.js"
import { MemoryStore } from "../memory/MemoryStore.js"
import type { CausingRequest } from "../observability/CausingRequest.js"
import type { Leased, LeaseRequest } from "../ports/LeasedWork.js"
import { deliveryShare, endpointCap, type EndpointHealth, WebhookDeliveryPolicy } from "./EndpointHealth.js"
import { type DeliveryListFilter, type DeliveryStatus, type ResendDeliveries, type WebhookAttempt, WebhookDelivery } from "./WebhookDelivery.js"

/** A delivery a worker is about to attempt. `payload` is the exact JSON that is sent. */
export interface DueDelivery {
  readonly tenant: Tenant
  readonly deliveryId: string
  readonly endpointId: string
  readonly eventId: string
  /** The id of what the event is about (`pay_…`), to find the request that made it in traces. */
  readonly objectId: string | null
  readonly payload: string
  readonly attemptCount: number
  /** The request that caused the event, for the attempt's span. */
  readonly cause: CausingRequest | null
}

/** How an attempt ended for the delivery: its new status and when, if ever, it is tried again. */
export interface AttemptRecord {
  readonly attempt: WebhookAttempt
  readonly status: DeliveryStatus
  readonly nextAttemptAt: DateTime.Utc | null
}

/**
 * A delivery to store, with its tenant and the exact bytes it will send, and its event's place in
 * the order of its object's events (`objectId`, then `eventCreatedAt` and the event's id).
 */
export interface NewDelivery {
  readonly tenant: Tenant
  readonly delivery: WebhookDelivery
  readonly payload: string
  readonly objectId: string | null
  readonly eventCreatedAt: DateTime.Utc
  readonly cause: CausingRequest | null
}

/**
 * Whether `later` comes after `earlier` among one object's events at one endpoint: the outbox's
 * order, by the event's time, then its id.
 */
export const eventOrder = (
  earlier: { readonly eventCreatedAt: DateTime.Utc; readonly eventId: string },
  later: { readonly eventCreatedAt: DateTime.Utc; readonly eventId: string }
) =>
  earlier.eventCreatedAt.epochMillis < later.eventCreatedAt.epochMillis ||
  (earlier.eventCreatedAt.epochMillis === later.eventCreatedAt.epochMillis && earlier.eventId < later.eventId)

export class WebhookDeliveriesRepository extends Context.Tag("core/WebhookDeliveriesRepository")<
  WebhookDeliveriesRepository,
  {
    /** Stores new deliveries at once; a second one for the same event and endpoint is ignored. */
    readonly insertAll: (deliveries: ReadonlyArray<NewDelivery>) => Effect.Effect<void>
    /** With its attempts, oldest first. */
    readonly find: (tenant: Tenant, id: string) => Effect.Effect<Option.Option<WebhookDelivery>>
    readonly list: (tenant: Tenant, filter: DeliveryListFilter, page: PageRequest) => Effect.Effect<
      Page<WebhookDelivery>,
      InvalidCursor
    >
    /**
     * Leases pending deliveries whose next attempt is due, fairly (see `FairShare`): each endpoint
     * is a lane, the longest waiting of its deliveries first, with `perLane` of them in flight at
     * most (none while its circuit is open, one trial once its cool-down is over). One whose object
     * has an earlier event not handed to the webhooks yet, or an earlier delivery to the same
     * endpoint never attempted yet, waits for it: first attempts go out in the object's event order.
     * Retries hold nothing back.
     */
    readonly claimDue: (lease: LeaseRequest) => Effect.Effect<ReadonlyArray<Leased<DueDelivery>>>
    /**
     * Records an attempt and what it makes of the delivery, in one step, only while the lease holds:
     * a worker whose lease lapsed (someone else took the delivery over) records nothing.
     */
    readonly recordAttempt: (leased: Leased<DueDelivery>, record: AttemptRecord) => Effect.Effect<boolean>
    /** `recordAttempt` for several deliveries at once, in one write. */
    readonly recordAttempts: (
      attempts: ReadonlyArray<{ readonly leased: Leased<DueDelivery>; readonly record: AttemptRecord }>
    ) => Effect.Effect<void>
    /** Back to `pending`, due at `at`, whatever its status; `None` when there is no such delivery. */
    readonly resend: (tenant: Tenant, id: string, at: DateTime.Utc) => Effect.Effect<Option.Option<WebhookDelivery>>
    /** `resend` for every delivery matching `filter` that is not pending already; how many. */
    readonly resendMatching: (tenant: Tenant, filter: ResendDeliveries, at: DateTime.Utc) => Effect.Effect<number>
  }
>() {
  static readonly layerMemory = Layer.effect(
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
}

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
