import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Dispute, DisputeStatus } from "../domain/disputes/Dispute.js"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import type { RecordRepository } from "./RecordStore.js"

/** What a list of disputes may be narrowed to. */
export interface DisputeListFilter {
  readonly status: DisputeStatus | undefined
  readonly paymentId: string | undefined
  /** The provider connection's name. */
  readonly provider: string | undefined
  /** Only disputes whose evidence is due before this time. */
  readonly dueBefore: DateTime.Utc | undefined
}

export interface DisputeRef {
  readonly tenant: Tenant
  readonly disputeId: string
}

export class DisputesRepository extends Context.Tag("core/DisputesRepository")<
  DisputesRepository,
  RecordRepository<Dispute> & {
    /** The dispute a connection's PSP knows by `pspDisputeId`. */
    readonly findByPspId: (tenant: Tenant, provider: string, pspDisputeId: string) => Effect.Effect<Option.Option<Dispute>>
    readonly list: (tenant: Tenant, filter: DisputeListFilter, page: PageRequest) => Effect.Effect<Page<Dispute>, InvalidCursor>
    /** Of every tenant, disputes that need a response with evidence due before `dueBefore` and not warned at 24 h yet, soonest first. */
    readonly dueBefore: (dueBefore: DateTime.Utc, limit: number) => Effect.Effect<ReadonlyArray<DisputeRef>>
    /**
     * Of every tenant, disputes waiting for their outcome: under review with their evidence submitted
     * before `quietSince`, no news from the PSP since then, and not read from it since then either;
     * longest waiting first.
     */
    readonly awaitingOutcome: (quietSince: DateTime.Utc, limit: number) => Effect.Effect<ReadonlyArray<DisputeRef>>
    /** Notes that the dispute was read from its PSP at `at` (so it waits again before the next read). */
    readonly markRead: (ref: DisputeRef, at: DateTime.Utc) => Effect.Effect<void>
  }
>() {}
