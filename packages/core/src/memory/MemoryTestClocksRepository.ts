import { DateTime, Effect, Layer, Option } from "effect"
import { randomBase32 } from "../domain/Ids.js"
import type { LaneKey } from "../domain/LeasedWork.js"
import { TestClock } from "../domain/subscriptions/TestClock.js"
import { type AdvanceStart, TestClocksRepository } from "../ports/TestClocksRepository.js"
import { memoryDocuments } from "./MemoryDocuments.js"
import { fairPick } from "./MemoryFairClaims.js"
import { MemoryStore } from "./MemoryStore.js"

/** `TestClocksRepository` in memory: for the core's tests and `CoreMemory`, on the same paths production takes. */
export const MemoryTestClocksRepository = Layer.effect(
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
