import { Effect, FiberRef } from "effect"
import { type CausingRequest, CurrentCausingRequest } from "../domain/events/CausingRequest.js"
import type { Event } from "../domain/events/Event.js"
import type { MemoryStore } from "./MemoryStore.js"

/** A row of the in-memory outbox: the event, whose it is, the request that caused it, and whether it has been handed on. */
export interface MemoryEventRow {
  readonly organizationId: string
  readonly event: Event
  readonly cause: CausingRequest | null
  readonly dispatched: boolean
}

export const memoryEventRows = (store: MemoryStore) => store.table<MemoryEventRow>("events")

/**
 * Adds events to the in-memory outbox, not yet dispatched, with the request being served (if any):
 * the events repository and the record stores alike.
 */
export const insertMemoryEvents = (store: MemoryStore, organizationId: string, events: ReadonlyArray<Event>): Effect.Effect<void> =>
  Effect.map(FiberRef.get(CurrentCausingRequest), (cause) => {
    const rows = memoryEventRows(store)
    for (const event of events) rows.set(event.id, { organizationId, event, cause, dispatched: false })
  })
