import { Effect, Layer } from "effect"
import type { AppliedOutcome } from "../domain/providers/ProviderEvent.js"
import { APPLY_SHARE, ProviderEventsRepository, type ReceivedEvent } from "../ports/ProviderEventsRepository.js"
import { memoryLeases } from "./MemoryLeases.js"
import { MemoryStore } from "./MemoryStore.js"

/** `ProviderEventsRepository` in memory: for the core's tests and `CoreMemory`, on the same paths production takes. */
export const MemoryProviderEventsRepository = Layer.effect(
  ProviderEventsRepository,
  Effect.map(MemoryStore, (store) => {
    type Row = ReceivedEvent & { readonly applied: AppliedOutcome | null }
    const rows = () => store.table<Row>("provider_events")
    const leases = memoryLeases(store, "provider_events")
    return {
      insert: (received) =>
        Effect.sync(() => {
          const same = [...rows().values()].find((row) => row.connectionId === received.connectionId && row.event.eventId === received.event.eventId)
          if (same !== undefined && same.applied !== "refused") return false
          if (same !== undefined) rows().delete(same.id)
          rows().set(received.id, { ...received, applied: null })
          return true
        }),
      has: (connectionId, eventId) =>
        Effect.sync(() => [...rows().values()].some((row) => row.connectionId === connectionId && row.event.eventId === eventId && row.applied !== "refused")),
      claimUnapplied: (lease) =>
        Effect.sync(() =>
          leases.claimFair(
            "unapplied",
            [...rows().values()]
              .sort((a, b) => a.receivedAt.epochMillis - b.receivedAt.epochMillis || (a.id < b.id ? -1 : 1))
              .map(({ applied, ...received }) => ({
                id: received.id,
                lane: [received.tenant.organizationId, received.tenant.livemode] as const,
                waiting: applied === null,
                due: true,
                item: received
              })),
            lease,
            APPLY_SHARE
          )
        ),
      finishClaim: (id, token) => Effect.sync(() => leases.finish(id, token)),
      markApplied: ({ item, token }, outcome) =>
        Effect.sync(() => {
          const row = rows().get(item.id)
          if (row === undefined || !leases.holds(item.id, token)) return false
          rows().set(item.id, { ...row, applied: outcome })
          leases.release(item.id)
          return true
        })
    }
  })
)
