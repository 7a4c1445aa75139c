import { Context, DateTime, Effect, Layer, Option } from "effect"
import { randomBase32 } from "../domain/Ids.js"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import { memoryDocuments } from "../memory/MemoryDocuments.js"
import { fairPick } from "../memory/MemoryFairClaims.js"
import { MemoryStore } from "../memory/MemoryStore.js"
import type { LaneKey, LeaseRequest } from "../ports/LeasedWork.js"
import { TestClock } from "./TestClock.js"

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
}>() {
  static readonly layerMemory = Layer.effect(
    TestClocksRepository,
    Effect.map(MemoryStore, (store) => {
      const documents = memoryDocuments<TestClock>(store, "test_clocks")
      let abandonedCursor: LaneKey | null = null
      const leases = store.table<{ readonly token: string; readonly until: DateTime.Utc; readonly target: DateTime.Utc }>(
        "test_clock_advances"
      )
      return {
        insert: documents.save,
        remove: (tenant, id) => Effect.zipRight(documents.remove(tenant, id), Effect.sync(() => void leases.delete(id))),
        find: documents.find,
        list: (tenant, page) => documents.list(tenant, () => true, page),
        startAdvance: (tenant, id, target, lease) =>
          Effect.flatMap(
            documents.find(tenant, id),
            Option.match({
              onNone: () => Effect.succeed<AdvanceStart>({ _tag: "Missing" }),
              onSome: (clock) => {
                const held = leases.get(id)
                if (held !== undefined && !DateTime.lessThan(held.until, lease.now)) return Effect.succeed<AdvanceStart>({ _tag: "Busy" })
                if (!DateTime.lessThan(clock.frozen_time, target)) return Effect.succeed<AdvanceStart>({ _tag: "NotForward", clock })
                const token = randomBase32(20)
                const advancing = new TestClock({ ...clock, status: "advancing" })
                leases.set(id, { token, until: lease.until, target })
                return Effect.as(documents.save(tenant, advancing), { _tag: "Started", clock: advancing, token } as const)
              }
            })
          ),
        holdAdvance: (_tenant, id, token, until) =>
          Effect.sync(() => {
            const held = leases.get(id)
            if (held?.token !== token) return false
            leases.set(id, { ...held, until })
            return true
          }),
        finishAdvance: (tenant, clock, token) =>
          Effect.suspend(() => {
            if (leases.get(clock.id)?.token !== token) return Effect.succeed(false)
            leases.delete(clock.id)
            return Effect.as(documents.save(tenant, clock), true)
          }),
        claimAbandoned: (lease) =>
          Effect.sync(() => {
            const rows = documents.everyone()
              .sort((a, b) => a.value.id < b.value.id ? -1 : 1)
              .map(({ tenant, value }) => ({
                id: value.id,
                lane: [tenant.organizationId, tenant.livemode] as const,
                waiting: leases.has(value.id),
                due: true,
                item: { tenant, clock: value }
              }))
            const uncapped = { perTenant: Number.MAX_SAFE_INTEGER, perLane: Number.MAX_SAFE_INTEGER }
            const picked = fairPick(rows, {
              limit: lease.limit,
              cursor: abandonedCursor,
              share: uncapped,
              free: (id) => !DateTime.greaterThan(leases.get(id)!.until, lease.now),
              inFlight: () => false
            })
            abandonedCursor = picked.cursor
            const token = randomBase32(20)
            return picked.picked.map(({ id, item }) => {
              const target = leases.get(id)!.target
              leases.set(id, { token, until: lease.until, target })
              return { ...item, target, token }
            })
          })
      }
    })
  )
}
