import { Context, DateTime, Effect } from "effect"
import type { FairShare, Leased, LeaseRequest } from "../domain/LeasedWork.js"
import type { AppliedOutcome, StoredProviderEvent } from "../domain/providers/ProviderEvent.js"
import type { Tenant } from "../domain/Tenant.js"

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
}>() {}
