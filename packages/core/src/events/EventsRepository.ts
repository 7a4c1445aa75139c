import { Context, Effect, Layer } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import { memoryLeases } from "../memory/MemoryLeases.js"
import { MemoryStore } from "../memory/MemoryStore.js"
import type { Leased, LeaseRequest } from "../ports/LeasedWork.js"
import type { Event } from "./Event.js"

/** An event as the outbox hands it to its consumers. */
export interface StoredEvent {
  readonly organizationId: string
  readonly event: Event
}

const newestFirst = (a: Event, b: Event) =>
  b.created_at.epochMillis - a.created_at.epochMillis || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

/**
 * The outbox: events are inserted in the transaction of the change they describe, and handed to
 * their consumers (webhooks, billing) by the dispatcher, each exactly once.
 */
export class EventsRepository extends Context.Tag("core/EventsRepository")<EventsRepository, {
  readonly insert: (organizationId: string, event: Event) => Effect.Effect<void>
  /** Newest first. */
  readonly listRecent: (tenant: Tenant, limit: number) => Effect.Effect<ReadonlyArray<Event>>
  /** Events not yet dispatched, oldest first, leased to one dispatcher. */
  readonly claimUndispatched: (lease: LeaseRequest) => Effect.Effect<ReadonlyArray<Leased<StoredEvent>>>
  /** Marks the event dispatched, if this lease still holds it; false when someone else took over. */
  readonly markDispatched: (leased: Leased<StoredEvent>) => Effect.Effect<boolean>
}>() {
  static readonly layerMemory = Layer.effect(
    EventsRepository,
    Effect.map(MemoryStore, (store) => {
      const rows = () => store.table<StoredEvent & { readonly dispatched: boolean }>("events")
      const leases = memoryLeases(store, "events")
      return {
        insert: (organizationId, event) =>
          Effect.sync(() => void rows().set(event.id, { organizationId, event, dispatched: false })),
        listRecent: (tenant, limit) =>
          Effect.sync(() =>
            [...rows().values()]
              .filter((row) => row.organizationId === tenant.organizationId && row.event.livemode === tenant.livemode)
              .map((row) => row.event)
              .sort(newestFirst)
              .slice(0, limit)
          ),
        claimUndispatched: (lease) =>
          Effect.sync(() =>
            leases.claim(
              [...rows().values()]
                .filter((row) => !row.dispatched)
                .sort((a, b) => newestFirst(b.event, a.event))
                .map((row) => ({ id: row.event.id, item: { organizationId: row.organizationId, event: row.event } })),
              lease
            )
          ),
        markDispatched: ({ item, token }) =>
          Effect.sync(() => {
            const row = rows().get(item.event.id)
            if (row === undefined || !leases.holds(item.event.id, token)) return false
            rows().set(item.event.id, { ...row, dispatched: true })
            leases.release(item.event.id)
            return true
          })
      }
    })
  )
}
