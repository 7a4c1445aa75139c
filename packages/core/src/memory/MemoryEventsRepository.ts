import { DateTime, Effect, Layer, Option } from "effect"
import type { Event } from "../domain/events/Event.js"
import type { Leased } from "../domain/LeasedWork.js"
import type { Tenant } from "../domain/Tenant.js"
import { EventsRepository, type StoredEvent } from "../ports/EventsRepository.js"
import { insertMemoryEvents, memoryEventRows } from "./MemoryEventRows.js"
import { memoryLeases } from "./MemoryLeases.js"
import { pageOf } from "./MemoryPaging.js"
import { MemoryStore } from "./MemoryStore.js"

const UNCAPPED = { perTenant: Number.MAX_SAFE_INTEGER, perLane: Number.MAX_SAFE_INTEGER }

const newestFirst = (a: Event, b: Event) => b.created_at.epochMillis - a.created_at.epochMillis || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

/** `EventsRepository` in memory: for the core's tests and `CoreMemory`, on the same paths production takes. */
export const MemoryEventsRepository = Layer.effect(
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
