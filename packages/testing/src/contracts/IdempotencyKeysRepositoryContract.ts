import { expect } from "@effect/vitest"
import { IdempotencyKeysRepository } from "@orchestrator/core"
import { DateTime, Effect, Option } from "effect"
import { at, newTenant, type StorageContractTest } from "./StorageContractFixtures.js"

/** An idempotency key store: one start wins and only the lock's holder changes a key. */
export const idempotencyKeysRepositoryContract = (it: StorageContractTest) => {
  it.effect("keeps idempotency keys: one start wins, locks, attach, complete, release and purge", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotencyKeysRepository
      const tenant = yield* newTenant
      const record = {
        key: "order-42",
        fingerprint: "f",
        resourceId: null,
        answer: null,
        lockedUntil: at(60_000),
        lockToken: "first",
        createdAt: at(0)
      }
      expect(Option.isNone(yield* keys.start(tenant, record))).toBe(true)
      const existing = Option.getOrThrow(yield* keys.start(tenant, { ...record, fingerprint: "other", lockToken: "x" }))
      expect([existing.fingerprint, existing.resourceId, existing.answer, existing.lockToken]).toEqual([
        "f",
        null,
        null,
        "first"
      ])
      expect(DateTime.toEpochMillis(existing.lockedUntil!)).toBe(DateTime.toEpochMillis(at(60_000)))
      // Same key in live mode is another key.
      expect(Option.isNone(yield* keys.start({ ...tenant, livemode: true }, record))).toBe(true)

      const retake = (nowMillis: number, lockToken: string) =>
        keys.acquire(tenant, "order-42", { now: at(nowMillis), lockedUntil: at(nowMillis + 60_000), lockToken })
      expect(Option.isNone(yield* retake(1000, "second"))).toBe(true)
      yield* keys.attach(tenant, "order-42", "first", "pay_1")
      yield* keys.release(tenant, "order-42", "first")
      const taken = Option.getOrThrow(yield* retake(2000, "second"))
      expect([taken.resourceId, taken.lockToken]).toEqual(["pay_1", "second"])

      // The first holder is no longer the holder: what it does now changes nothing.
      yield* keys.attach(tenant, "order-42", "first", "pay_other")
      yield* keys.complete(tenant, "order-42", "first", { outcome: "failed:conflict:Stale", body: "stale" })
      yield* keys.release(tenant, "order-42", "first")
      const held = Option.getOrThrow(yield* keys.start(tenant, record))
      expect([held.resourceId, held.answer, held.lockToken]).toEqual(["pay_1", null, "second"])

      yield* keys.complete(tenant, "order-42", "second", { outcome: "succeeded", body: "{\"id\":\"pay_1\"}" })
      const finished = Option.getOrThrow(yield* keys.start(tenant, record))
      expect([finished.answer, finished.lockedUntil]).toEqual([{ outcome: "succeeded", body: "{\"id\":\"pay_1\"}" }, null])
      expect(Option.isNone(yield* retake(999_000, "third"))).toBe(true)

      yield* keys.start(tenant, { ...record, key: "held", createdAt: at(0), lockedUntil: at(10 * 86_400_000) })
      yield* keys.start(tenant, { ...record, key: "young", createdAt: at(2 * 86_400_000) })
      yield* keys.purge({ createdBefore: at(86_400_000), now: at(2 * 86_400_000) })
      expect(Option.isNone(yield* keys.start(tenant, { ...record, createdAt: at(3 * 86_400_000) }))).toBe(true)
      expect(Option.isSome(yield* keys.start(tenant, { ...record, key: "held" }))).toBe(true)
      expect(Option.isSome(yield* keys.start(tenant, { ...record, key: "young" }))).toBe(true)
    }))
}
