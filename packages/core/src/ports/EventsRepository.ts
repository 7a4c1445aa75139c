import { Context, DateTime, Effect, Option } from "effect"
import type { CausingRequest } from "../domain/events/CausingRequest.js"
import type { Event } from "../domain/events/Event.js"
import type { Leased, LeaseRequest } from "../domain/LeasedWork.js"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"

/** Which events a list shows: of one type, created within bounds (inclusive). */
export interface EventFilter {
  readonly type: string | undefined
  readonly createdGte: DateTime.Utc | undefined
  readonly createdLte: DateTime.Utc | undefined
}

/** An event as the outbox hands it to its consumers, with the request that caused it (none for a worker's). */
export interface StoredEvent {
  readonly organizationId: string
  readonly event: Event
  readonly cause: CausingRequest | null
}

/**
 * The outbox: events are inserted in the transaction of the change they describe, and handed to
 * their consumers (webhooks, billing) by the dispatcher, each exactly once.
 */
export class EventsRepository extends Context.Tag("core/EventsRepository")<EventsRepository, {
  readonly insert: (organizationId: string, event: Event) => Effect.Effect<void>
  /** Several events of one change, in order, written at once. */
  readonly insertAll: (organizationId: string, events: ReadonlyArray<Event>) => Effect.Effect<void>
  /** Newest first. */
  readonly listRecent: (tenant: Tenant, limit: number) => Effect.Effect<ReadonlyArray<Event>>
  readonly find: (tenant: Tenant, id: string) => Effect.Effect<Option.Option<Event>>
  readonly list: (tenant: Tenant, filter: EventFilter, page: PageRequest) => Effect.Effect<Page<Event>, InvalidCursor>
  /** Deletes dispatched events created before `before`; how many. */
  readonly purge: (before: DateTime.Utc) => Effect.Effect<number>
  /**
   * Events not yet dispatched, oldest first within each organization's mode, leased to one
   * dispatcher; organizations take turns (see `FairShare`), with no cap: handing events over is
   * quick work of the database's.
   */
  readonly claimUndispatched: (lease: LeaseRequest) => Effect.Effect<ReadonlyArray<Leased<StoredEvent>>>
  /** Marks the event dispatched, if this lease still holds it; false when someone else took over. */
  readonly markDispatched: (leased: Leased<StoredEvent>) => Effect.Effect<boolean>
  /** `markDispatched` for a claimed batch in one write: the ids this lease still held. */
  readonly markDispatchedAll: (claimed: ReadonlyArray<Leased<StoredEvent>>) => Effect.Effect<ReadonlySet<string>>
}>() {}
