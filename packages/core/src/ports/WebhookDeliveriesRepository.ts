import { Context, DateTime, Effect, Option } from "effect"
import type { CausingRequest } from "../domain/events/CausingRequest.js"
import type { Leased, LeaseRequest } from "../domain/LeasedWork.js"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import {
  type DeliveryListFilter,
  type DeliveryStatus,
  type ResendDeliveries,
  type WebhookAttempt,
  WebhookDelivery
} from "../domain/webhooks/WebhookDelivery.js"

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
>() {}
