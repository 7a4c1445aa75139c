import { Context, DateTime, Effect, Option } from "effect"
import type { LeaseRequest } from "../domain/LeasedWork.js"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import { TestClock } from "../domain/subscriptions/TestClock.js"
import type { Tenant } from "../domain/Tenant.js"

/** What asking to start an advance found: the clock is now held (`token`), or why not. */
export type AdvanceStart =
  | { readonly _tag: "Started"; readonly clock: TestClock; readonly token: string }
  | { readonly _tag: "Missing" }
  | { readonly _tag: "Busy" }
  | { readonly _tag: "NotForward"; readonly clock: TestClock }

/** An advance whose process died (its lease ran out), now held by the worker that took it over. */
export interface AbandonedAdvance {
  readonly tenant: Tenant
  readonly clock: TestClock
  readonly target: DateTime.Utc
  readonly token: string
}

/** The real time of the request, and how long the advance holds the clock unless it renews. */
export interface AdvanceLease {
  readonly now: DateTime.Utc
  readonly until: DateTime.Utc
}

export class TestClocksRepository extends Context.Tag("core/TestClocksRepository")<TestClocksRepository, {
  readonly insert: (tenant: Tenant, clock: TestClock) => Effect.Effect<void>
  readonly remove: (tenant: Tenant, id: string) => Effect.Effect<void>
  readonly find: (tenant: Tenant, id: string) => Effect.Effect<Option.Option<TestClock>>
  readonly list: (tenant: Tenant, page: PageRequest) => Effect.Effect<Page<TestClock>, InvalidCursor>
  /**
   * Holds the clock for an advance to `target`, in one step any process sees: only while no other
   * advance holds it (or its holder's lease ran out) and the clock is still before `target`. The
   * clock shows `advancing` from here on.
   */
  readonly startAdvance: (tenant: Tenant, id: string, target: DateTime.Utc, lease: AdvanceLease) => Effect.Effect<AdvanceStart>
  /** Renews the advance's lease; false once the clock was deleted or its advance taken over. */
  readonly holdAdvance: (tenant: Tenant, id: string, token: string, until: DateTime.Utc) => Effect.Effect<boolean>
  /** Writes `clock` (its time and status) and lets the clock go; false, and nothing written, if `token` no longer holds it. */
  readonly finishAdvance: (tenant: Tenant, clock: TestClock, token: string) => Effect.Effect<boolean>
  /** Takes over up to `lease.limit` advances whose lease ran out, to finish them; organizations take turns (see `FairShare`). */
  readonly claimAbandoned: (lease: LeaseRequest) => Effect.Effect<ReadonlyArray<AbandonedAdvance>>
}>() {}
