import { expect } from "@effect/vitest"
import {
  EventsRepository,
  IdempotencyKeysRepository,
  type IdempotencyRecord,
  Payment,
  PaymentAttempt,
  PaymentsRepository,
  type Tenant
} from "@orchestrator/core"
import { Effect, Option } from "effect"
import { at, newTenant, payment, paymentEvent, type StorageContractTest } from "./StorageContractFixtures.js"

const keyRecord = (resourceId: string, lockToken: string): IdempotencyRecord => ({
  key: "order-7",
  fingerprint: "f",
  resourceId,
  answer: null,
  lockedUntil: at(120_000),
  lockToken,
  createdAt: at(0)
})

/** The key as stored now (a `start` that finds it changes nothing). */
const storedKey = (tenant: Tenant) =>
  Effect.flatMap(IdempotencyKeysRepository, (keys) => keys.start(tenant, keyRecord("pay_none", "probe"))).pipe(Effect.map(Option.getOrThrow))

/** Writes to an Idempotency-Key that ride along with a payment's own write: in it, or not at all. */
export const keyRidesContract = (it: StorageContractTest) => {
  it.effect("a payment's insert claims its Idempotency-Key in the same write, and writes nothing when the key exists", () =>
    Effect.gen(function*() {
      const repository = yield* PaymentsRepository
      const events = yield* EventsRepository
      const tenant = yield* newTenant
      const first = payment(tenant, { status: "processing", created_at: at(1), updated_at: at(1) })
      expect(yield* repository.insertWithEvents(tenant, first, [paymentEvent(first, 1)], keyRecord(first.id, "first"))).toBe(true)
      expect(Option.isSome(yield* repository.find(tenant, first.id))).toBe(true)
      const key = yield* storedKey(tenant)
      expect([key.resourceId, key.lockToken, key.answer]).toEqual([first.id, "first", null])

      // A second request under the same key: neither its payment nor its event is written.
      const second = payment(tenant, { status: "processing", created_at: at(2), updated_at: at(2) })
      expect(yield* repository.insertWithEvents(tenant, second, [paymentEvent(second, 2)], keyRecord(second.id, "second")))
        .toBe(false)
      expect(Option.isNone(yield* repository.find(tenant, second.id))).toBe(true)
      expect((yield* events.listRecent(tenant, 10)).map((event) => event.data.object.id)).toEqual([first.id])
      expect((yield* storedKey(tenant)).lockToken).toBe("first")
    }))

  it.effect("a payment's compare-and-set completes its key in the same write, only when it is made and the lock holds", () =>
    Effect.gen(function*() {
      const repository = yield* PaymentsRepository
      const tenant = yield* newTenant
      const created = payment(tenant, { status: "processing", created_at: at(1), updated_at: at(1) })
      yield* repository.insertWithEvents(tenant, created, [], keyRecord(created.id, "first"))
      const succeeded = new Payment({
        ...created,
        status: "succeeded",
        amount_captured: created.amount,
        attempts: [new PaymentAttempt({ ...created.attempts[0]!, status: "succeeded" })],
        updated_at: at(3)
      })
      const completion = { key: "order-7", lockToken: "first", answer: { outcome: "succeeded", body: "{\"id\":\"answer\"}" } }
      // Seen as it no longer is: neither the payment nor the key changes.
      const stale = new Payment({ ...created, updated_at: at(0) })
      expect(yield* repository.updateIfUnchanged(tenant, stale, succeeded, [], completion)).toBe(false)
      expect((yield* storedKey(tenant)).answer).toBeNull()

      expect(yield* repository.updateIfUnchanged(tenant, created, succeeded, [paymentEvent(succeeded, 3, "payment.succeeded")], completion))
        .toBe(true)
      const key = yield* storedKey(tenant)
      expect([key.answer, key.lockToken, key.lockedUntil]).toEqual([completion.answer, null, null])

      // A key another request has taken over is left to it, and the payment's own write is made.
      const other = yield* newTenant
      const taken = payment(other, { status: "processing", created_at: at(1), updated_at: at(1) })
      yield* repository.insertWithEvents(other, taken, [], keyRecord(taken.id, "retry"))
      const moved = new Payment({ ...taken, status: "failed", updated_at: at(4) })
      expect(yield* repository.updateIfUnchanged(other, taken, moved, [], completion)).toBe(true)
      expect([(yield* storedKey(other)).answer, (yield* storedKey(other)).lockToken]).toEqual([null, "retry"])
      expect((yield* repository.find(other, taken.id)).pipe(Option.map((found) => found.status))).toEqual(Option.some("failed"))
    }))
}
