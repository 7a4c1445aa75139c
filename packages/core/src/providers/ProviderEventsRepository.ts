import { Context, DateTime, Effect, Layer } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import { memoryLeases } from "../memory/MemoryLeases.js"
import { MemoryStore } from "../memory/MemoryStore.js"
import type { FairShare, Leased, LeaseRequest } from "../ports/LeasedWork.js"
import type { AppliedOutcome, StoredProviderEvent } from "./ProviderEvent.js"

/** A PSP event as received, waiting to be applied. */
export interface ReceivedEvent {
  readonly id: string
  readonly connectionId: string
  readonly tenant: Tenant
  readonly event: StoredProviderEvent
  readonly receivedAt: DateTime.Utc
}

/** How applying PSP events shares its workers (see `FairShare`): two of an organization's mode at a time. */
export const APPLY_SHARE: FairShare = { perTenant: 2, perLane: 2 }

export class ProviderEventsRepository extends Context.Tag("core/ProviderEventsRepository")<ProviderEventsRepository, {
  /**
   * Stores the event unless this connection already sent one with its PSP id that was applied, set
   * aside, or is still waiting; one that was `refused` is replaced by it. True when stored.
   */
  readonly insert: (received: ReceivedEvent) => Effect.Effect<boolean>
  /** Whether `insert` would take an event of this connection with this PSP id as a repeat (one stored and not refused). */
  readonly has: (connectionId: string, eventId: string) => Effect.Effect<boolean>
  /** Events not applied yet, oldest first, leased to one worker, fairly (see `FairShare`; each organization's mode is a lane). */
  readonly claimUnapplied: (lease: LeaseRequest) => Effect.Effect<ReadonlyArray<Leased<ReceivedEvent>>>
  /** The worker has finished with an event it keeps for later; it waits out its lease. Only while `token` still holds it. */
  readonly finishClaim: (id: string, token: string) => Effect.Effect<void>
  /** Marks the event done, if this lease still holds it. */
  readonly markApplied: (leased: Leased<ReceivedEvent>, outcome: AppliedOutcome, at: DateTime.Utc) => Effect.Effect<boolean>
}>() {
  static readonly layerMemory = Layer.effect(
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
          Effect.sync(() =>
            [...rows().values()].some((row) => row.connectionId === connectionId && row.event.eventId === eventId && row.applied !== "refused")
          ),
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
}
