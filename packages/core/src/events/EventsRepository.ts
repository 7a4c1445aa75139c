import { Context, Effect, Layer } from "effect"
import { MemoryStore } from "../memory/MemoryStore.js"
import type { Tenant } from "../domain/Tenant.js"
import type { Event } from "./Event.js"

/** The outbox: events are inserted in the transaction of the change they describe. */
export class EventsRepository extends Context.Tag("core/EventsRepository")<EventsRepository, {
  readonly insert: (organizationId: string, event: Event) => Effect.Effect<void>
  /** Newest first; enough for tests and the coming `GET /v1/events`. */
  readonly listRecent: (tenant: Tenant, limit: number) => Effect.Effect<ReadonlyArray<Event>>
}>() {
  static readonly layerMemory = Layer.effect(
    EventsRepository,
    Effect.map(MemoryStore, (store) => {
      const rows = () => store.table<{ organizationId: string; event: Event }>("events")
      return {
        insert: (organizationId, event) => Effect.sync(() => void rows().set(event.id, { organizationId, event })),
        listRecent: (tenant, limit) =>
          Effect.sync(() =>
            [...rows().values()]
              .filter((row) => row.organizationId === tenant.organizationId && row.event.livemode === tenant.livemode)
              .map((row) => row.event)
              .sort((a, b) =>
                b.created_at.epochMillis - a.created_at.epochMillis || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
              )
              .slice(0, limit)
          )
      }
    })
  )
}
