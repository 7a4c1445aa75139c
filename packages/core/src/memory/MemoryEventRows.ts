import type { Event } from "../events/Event.js"
import type { MemoryStore } from "./MemoryStore.js"

/** A row of the in-memory outbox: the event, whose it is, and whether it has been handed on. */
export interface MemoryEventRow {
  readonly organizationId: string
  readonly event: Event
  readonly dispatched: boolean
}

export const memoryEventRows = (store: MemoryStore) => store.table<MemoryEventRow>("events")

/** Adds events to the in-memory outbox, not yet dispatched: the events repository and the record stores alike. */
export const insertMemoryEvents = (store: MemoryStore, organizationId: string, events: ReadonlyArray<Event>): void => {
  const rows = memoryEventRows(store)
  for (const event of events) rows.set(event.id, { organizationId, event, dispatched: false })
}
