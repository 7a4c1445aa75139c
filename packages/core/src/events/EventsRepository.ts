import { Context, DateTime, Effect, Layer, Option } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import { insertMemoryEvents, memoryEventRows } from "../memory/MemoryEventRows.js"
import { memoryLeases } from "../memory/MemoryLeases.js"
import { pageOf } from "../memory/MemoryPaging.js"
import { MemoryStore } from "../memory/MemoryStore.js"
import type { CausingRequest } from "../observability/CausingRequest.js"
import type { Leased, LeaseRequest } from "../ports/LeasedWork.js"
import type { Event } from "./Event.js"

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

const UNCAPPED = { perTenant: Number.MAX_SAFE_INTEGER, perLane: Number.MAX_SAFE_INTEGER }

const newestFirst = (a: Event, b: Event) => b.created_at.epochMillis - a.created_at.epochMillis || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

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
}>() {
  static readonly layerMemory = Layer.effect(
    EventsRepository,
    Effect.map(MemoryStore, (store) => {
      const rows = () => memoryEventRows(store)
      const leases = memoryLeases(store, "events")
      const markDispatched = ({ item, token }: Leased<StoredEvent>) =>
        Effect.sync(() => {
          const row = rows().get(item.event.id)
          if (row === undefined || !leases.holds(item.event.id, token)) return false
          rows().set(item.event.id, { ...row, dispatched: true })
          leases.release(item.event.id)
          return true
        })
      const mine = (tenant: Tenant) =>
        [...rows().values()]
          .filter((row) => row.organizationId === tenant.organizationId && row.event.livemode === tenant.livemode)
          .map((row) => row.event)
      const insertAll = (organizationId: string, events: ReadonlyArray<Event>) => insertMemoryEvents(store, organizationId, events)
      return {
        insert: (organizationId, event) => insertAll(organizationId, [event]),
        insertAll,
        listRecent: (tenant, limit) =>
          Effect.sync(() =>
            [...rows().values()]
              .filter((row) => row.organizationId === tenant.organizationId && row.event.livemode === tenant.livemode)
              .map((row) => row.event)
              .sort(newestFirst)
              .slice(0, limit)
          ),
        find: (tenant, id) => Effect.sync(() => Option.fromNullable(mine(tenant).find((event) => event.id === id))),
        list: (tenant, filter, page) =>
          pageOf(
            mine(tenant),
            (event) =>
              (filter.type === undefined || event.type === filter.type) &&
              (filter.createdGte === undefined || !DateTime.lessThan(event.created_at, filter.createdGte)) &&
              (filter.createdLte === undefined || !DateTime.greaterThan(event.created_at, filter.createdLte)),
            page
          ),
        purge: (before) =>
          Effect.sync(() => {
            let purged = 0
            for (const [id, row] of rows()) {
              if (row.dispatched && DateTime.lessThan(row.event.created_at, before)) {
                rows().delete(id)
                purged++
              }
            }
            return purged
          }),
        claimUndispatched: (lease) =>
          Effect.sync(() =>
            leases.claimFair(
              "undispatched",
              [...rows().values()]
                .sort((a, b) => newestFirst(b.event, a.event))
                .map((row) => ({
                  id: row.event.id,
                  lane: [row.organizationId, row.event.livemode] as const,
                  waiting: !row.dispatched,
                  due: true,
                  item: { organizationId: row.organizationId, event: row.event, cause: row.cause }
                })),
              // Uncapped, as the SQL's (`capped: false`): a claim takes up to its limit of one organization.
              { ...lease, share: UNCAPPED },
              UNCAPPED
            )
          ),
        markDispatched,
        markDispatchedAll: (claimed) =>
          Effect.map(
            Effect.forEach(claimed, (leased) => Effect.map(markDispatched(leased), (held) => held ? [leased.item.event.id] : [])),
            (held) => new Set(held.flat())
          )
      }
    })
  )
}
