import { describe, expect, it } from "@effect/vitest"
import { DateTime, Deferred, Effect, Exit, Fiber, Option, Schema, TestClock } from "effect"
import { canonicalJson, fingerprint, type KeptAnswer } from "../src/domain/idempotency/IdempotencyKey.js"
import { heldBy, type KeyedRequest, noKey, type Running } from "../src/domain/idempotency/KeyRun.js"
import { RateLimited } from "../src/domain/limits/LimitErrors.js"
import { PaymentNotFound } from "../src/domain/payments/PaymentErrors.js"
import { IdempotentRequests } from "../src/features/idempotency/IdempotentRequests.js"
import { IdempotencyKeysRepository } from "../src/ports/IdempotencyKeysRepository.js"
import { makeTestServices } from "./support/TestServices.js"

const tenant = { organizationId: "org_1", livemode: false }
const request: KeyedRequest = { tenant, key: "key-1", fingerprint: "f1", requestId: null }
const Answer = Schema.Struct({ n: Schema.Number })
const spec = { schema: Answer }
const ok = (n: number) => Effect.succeed({ n })
const succeeded = (json: string): KeptAnswer => ({ _tag: "Succeeded", json })

describe("IdempotentRequests", () => {
  it.effect("runs once and replays the kept answer for the same request", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotentRequests
      let runs = 0
      const operation = () => Effect.sync(() => ({ n: ++runs }))
      const first = yield* keys.run(request, spec, operation)
      const second = yield* keys.run(request, spec, operation)
      expect(first).toEqual({ answer: succeeded("{\"n\":1}"), replayed: false, originalRequestId: null })
      expect(second).toEqual({ answer: succeeded("{\"n\":1}"), replayed: true, originalRequestId: null })
      expect(runs).toBe(1)
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("keeps a service's failure as the answer, with its kind, tag and body, and replays it", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotentRequests
      let runs = 0
      const operation = () => Effect.zipRight(Effect.sync(() => runs++), Effect.fail(new PaymentNotFound({ id: "pay_9" })))
      const first = yield* keys.run(request, spec, operation)
      const again = yield* keys.run(request, spec, operation)
      expect(first.answer).toEqual({
        _tag: "Failed",
        kind: "not_found",
        tag: "PaymentNotFound",
        json: "{\"code\":\"resource_missing\",\"message\":\"No such payment: 'pay_9'\",\"param\":\"id\"}"
      })
      expect([again.replayed, again.answer, runs]).toEqual([true, first.answer, 1])
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("a failure that says nothing happened yet (the PSP unreachable) is answered but not kept: a retry tries again", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotentRequests
      const unreachable = new RateLimited({ perSecond: 1, retryAfterMs: 1000 })
      const first = yield* keys.run(request, spec, () => Effect.fail(unreachable))
      const retried = yield* keys.run(request, spec, () => ok(1))
      expect([first.answer._tag, first.answer._tag === "Failed" && first.answer.kind]).toEqual(["Failed", "rate_limited"])
      expect([retried.replayed, retried.answer]).toEqual([false, succeeded("{\"n\":1}")])
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("a replay names the request that first got the answer, sealed or not", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotentRequests
      for (const sealed of [false, true]) {
        const key = `named-${sealed}`
        const first = yield* keys.run({ ...request, key, requestId: "req_first" }, { ...spec, sealed }, () => ok(7))
        const second = yield* keys.run({ ...request, key, requestId: "req_second" }, { ...spec, sealed }, () => ok(8))
        expect(first).toEqual({ answer: succeeded("{\"n\":7}"), replayed: false, originalRequestId: null })
        expect(second).toEqual({ answer: succeeded("{\"n\":7}"), replayed: true, originalRequestId: "req_first" })
      }
      // A sealed answer is not readable in the store.
      const stored = Option.getOrThrow(yield* (yield* IdempotencyKeysRepository).find(tenant, "named-true"))
      expect(stored.answer?.body).not.toContain("\"n\":7")
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("replays an answer kept by an earlier version as it was, HTTP status and all", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotentRequests
      yield* (yield* IdempotencyKeysRepository).start(tenant, {
        key: "legacy",
        fingerprint: "f1",
        resourceId: null,
        answer: { outcome: "http:402", body: "{\"error\":{\"request_id\":\"req_old\"}}" },
        lockedUntil: null,
        lockToken: null,
        createdAt: yield* DateTime.now
      })
      const replay = yield* keys.run({ ...request, key: "legacy" }, spec, () => ok(1))
      expect(replay).toEqual({
        answer: { _tag: "Http", status: 402, body: "{\"error\":{\"request_id\":\"req_old\"}}" },
        replayed: true,
        originalRequestId: null
      })
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("a key that rides with the first write: an answer reached before any write is kept; a first write that meets the key is judged again", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotentRequests
      const repository = yield* IdempotencyKeysRepository
      // Refused before any write: the key is written with that answer, and a retry replays it.
      const refusing = yield* keys.begin({ ...request, key: "refused" }, { reserve: "pay", rides: true })
      expect(refusing._tag === "Running" && refusing.pending !== null && refusing.reserved?.startsWith("pay_")).toBe(true)
      const refused = yield* keys.finish(refusing, spec, Exit.fail(new PaymentNotFound({ id: "x" })))
      const replayed = yield* keys.begin({ ...request, key: "refused" }, { reserve: "pay", rides: true }).pipe(
        Effect.flatMap((run) => keys.claimed(run as Running))
      )
      expect(replayed._tag === "Replay" && replayed.answer.answer).toEqual(refused.answer)

      // The first write carries the key (here a store that writes only the key): a second request's
      // first write finds it, and is judged again as that request's retry: in use while it runs,
      // then the replay of its answer.
      const first = (yield* keys.begin({ ...request, key: "created" }, { reserve: "pay", rides: true })) as Running
      const second = (yield* keys.begin({ ...request, key: "created" }, { reserve: "pay", rides: true })) as Running
      expect(Option.isNone(yield* repository.start(tenant, first.pending!))).toBe(true)
      expect(Option.isSome(yield* repository.start(tenant, second.pending!))).toBe(true)
      expect((yield* Effect.flip(keys.claimed(second)))._tag).toBe("IdempotencyKeyInUse")
      const answered = yield* keys.finish(heldBy(first), spec, Exit.succeed({ n: 1 }))
      const judged = yield* keys.claimed(second)
      expect(judged._tag === "Replay" && judged.answer.answer).toEqual(answered.answer)
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("the key's completion rides with the write of the answer: then finishing writes nothing more", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotentRequests
      const repository = yield* IdempotencyKeysRepository
      const run = (yield* keys.begin({ ...request, key: "riding" }, { reserve: "pay", rides: true })) as Running
      // Nothing rides while the key is not written, nor without a key.
      expect(yield* keys.completion(run, spec, { n: 1 })).toBeUndefined()
      expect(yield* keys.completion(noKey, spec, { n: 1 })).toBeUndefined()
      yield* repository.start(tenant, run.pending!)
      const held = heldBy(run)
      const riding = (yield* keys.completion(held, spec, { n: 2 }))!
      expect([riding.write.key, riding.write.lockToken, riding.kept]).toEqual(["riding", held.lockToken, succeeded("{\"n\":2}")])
      // A write that was not made completes nothing.
      expect(keys.completed(held, riding, false)).toBe(held)
      yield* repository.complete(tenant, "riding", held.lockToken, riding.write.answer)
      const done = keys.completed(held, riding, true)
      expect(done).toEqual({ _tag: "Completed", answer: succeeded("{\"n\":2}") })
      expect(yield* keys.finish(done, spec, Exit.succeed({ n: 2 }))).toEqual({ answer: succeeded("{\"n\":2}"), replayed: false, originalRequestId: null })
      expect((yield* keys.run({ ...request, key: "riding" }, spec, () => ok(3))).answer).toEqual(succeeded("{\"n\":2}"))
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("refuses the key for a different request, and keeps modes and organizations apart", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotentRequests
      yield* keys.run(request, spec, () => ok(1))
      const reused = yield* Effect.flip(keys.run({ ...request, fingerprint: "f2" }, spec, () => ok(2)))
      expect(reused._tag).toBe("IdempotencyKeyReused")
      const live = yield* keys.run({ ...request, tenant: { ...tenant, livemode: true } }, spec, () => ok(3))
      expect(live.replayed).toBe(false)
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("answers 'in use' while the first request runs", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotentRequests
      const gate = yield* Deferred.make<void>()
      const first = yield* Effect.fork(keys.run(request, spec, () => Effect.zipRight(Deferred.await(gate), ok(1))))
      yield* TestClock.adjust("1 millis")
      const second = yield* Effect.flip(keys.run(request, spec, () => ok(2)))
      expect(second._tag).toBe("IdempotencyKeyInUse")
      yield* Deferred.succeed(gate, undefined)
      expect((yield* Fiber.join(first)).answer).toEqual(succeeded("{\"n\":1}"))
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("releases the key when the operation dies, and hands the next request the object the first one created", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotentRequests
      const died = yield* Effect.exit(keys.run(request, spec, (run) => Effect.zipRight(keys.attach(run, "pay_9"), Effect.die("crash"))))
      expect(died._tag).toBe("Failure")
      let recovered: string | null = null
      yield* keys.run(request, spec, (run) => Effect.sync(() => (recovered = run.recovered)).pipe(Effect.as({ n: 1 })))
      expect(recovered).toBe("pay_9")
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("a request that stalls past its lock cannot attach a second object once a retry took the key over", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotentRequests
      const gate = yield* Deferred.make<void>()
      const stalled = yield* Effect.fork(
        keys.run(request, spec, (run) => Effect.zipRight(Deferred.await(gate), Effect.zipRight(keys.attach(run, "pay_stalled"), ok(1))))
      )
      yield* TestClock.adjust("3 minutes")
      const retry = yield* keys.run(request, spec, (run) => Effect.zipRight(keys.attach(run, "pay_retry"), ok(2)))
      expect(retry.answer).toEqual(succeeded("{\"n\":2}"))
      yield* Deferred.succeed(gate, undefined)
      expect((yield* Fiber.await(stalled))._tag).toBe("Failure")
      expect((yield* keys.run(request, spec, () => ok(3))).answer).toEqual(succeeded("{\"n\":2}"))
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("lets a crashed request's key be taken over once its lock lapses", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotentRequests
      const now = yield* DateTime.now
      // A request that crashed: its key is locked and unfinished, with a payment attached.
      yield* (yield* IdempotencyKeysRepository).start(tenant, {
        key: "key-1",
        fingerprint: "f1",
        resourceId: "pay_crashed",
        answer: null,
        lockedUntil: DateTime.add(now, { minutes: 2 }),
        lockToken: "crashed-process",
        createdAt: now
      })
      expect((yield* Effect.flip(keys.run(request, spec, () => ok(1))))._tag).toBe("IdempotencyKeyInUse")
      yield* TestClock.adjust("3 minutes")
      let recovered: string | null = null
      yield* keys.run(request, spec, (run) => Effect.sync(() => (recovered = run.recovered)).pipe(Effect.as({ n: 2 })))
      expect(recovered).toBe("pay_crashed")
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("a request that outlived its lock cannot overwrite the answer of the one that took over", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotentRequests
      const gate = yield* Deferred.make<void>()
      const slow = yield* Effect.fork(keys.run(request, spec, () => Effect.zipRight(Deferred.await(gate), ok(1))))
      yield* TestClock.adjust("3 minutes")
      const taker = yield* keys.run(request, spec, () => ok(2))
      expect(taker.answer).toEqual(succeeded("{\"n\":2}"))
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(slow)
      const replay = yield* keys.run(request, spec, () => ok(3))
      expect([replay.replayed, replay.answer]).toEqual([true, succeeded("{\"n\":2}")])
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("purges keys older than a day that nobody holds", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotentRequests
      const repository = yield* IdempotencyKeysRepository
      yield* keys.run(request, spec, () => ok(1))
      yield* TestClock.adjust("25 hours")
      yield* keys.run({ ...request, key: "key-2" }, spec, () => ok(2))
      const now = yield* DateTime.now
      expect(yield* repository.purge({ createdBefore: DateTime.subtract(now, { hours: 24 }), now })).toBe(1)
      expect((yield* keys.run(request, spec, () => ok(3))).replayed).toBe(false)
      expect((yield* keys.run({ ...request, key: "key-2" }, spec, () => ok(4))).replayed).toBe(true)
    }).pipe(Effect.provide(makeTestServices().layer)))
})

describe("fingerprint", () => {
  it.effect("does not depend on key order, and does depend on every value", () =>
    Effect.gen(function*() {
      const a = yield* fingerprint("POST", "/v1/payments", { amount: 1, currency: "EUR", metadata: { a: "1", b: "2" } })
      const b = yield* fingerprint("POST", "/v1/payments", { metadata: { b: "2", a: "1" }, currency: "EUR", amount: 1 })
      const c = yield* fingerprint("POST", "/v1/payments", { amount: 2, currency: "EUR", metadata: { a: "1", b: "2" } })
      const d = yield* fingerprint("POST", "/v1/refunds", { amount: 1, currency: "EUR", metadata: { a: "1", b: "2" } })
      expect(a).toBe(b)
      expect(a).not.toBe(c)
      expect(a).not.toBe(d)
      expect(canonicalJson({ b: [2, { d: 1, c: null }], a: "x" })).toBe("{\"a\":\"x\",\"b\":[2,{\"c\":null,\"d\":1}]}")
    }))
})
