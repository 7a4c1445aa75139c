import { describe, expect, it } from "@effect/vitest"
import { DateTime, Deferred, Effect, Fiber, Option, TestClock } from "effect"
import { canonicalJson, fingerprint } from "../src/idempotency/Fingerprint.js"
import { IdempotencyKeysRepository } from "../src/idempotency/IdempotencyKeysRepository.js"
import { IdempotencyScope } from "../src/idempotency/IdempotencyScope.js"
import { IdempotentRequests } from "../src/idempotency/IdempotentRequests.js"
import { makeTestServices } from "./support/TestServices.js"

const tenant = { organizationId: "org_1", livemode: false }
const request = { tenant, key: "key-1", fingerprint: "f1" }
const ok = (body: string) => Effect.succeed({ status: 201, body })

describe("IdempotentRequests", () => {
  it.effect("runs once and replays the stored response for the same request", () =>
    Effect.gen(function*() {
      const idempotent = yield* IdempotentRequests
      let runs = 0
      const operation = Effect.sync(() => ++runs).pipe(Effect.flatMap((n) => ok(`{"n":${n}}`)))
      const first = yield* idempotent.execute(request, operation)
      const second = yield* idempotent.execute(request, operation)
      expect(first).toEqual({ response: { status: 201, body: "{\"n\":1}" }, replayed: false })
      expect(second).toEqual({ response: { status: 201, body: "{\"n\":1}" }, replayed: true })
      expect(runs).toBe(1)
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("a replay names the request that first got the answer, sealed or not", () =>
    Effect.gen(function*() {
      const idempotent = yield* IdempotentRequests
      for (const sealResponse of [false, true]) {
        const key = `named-${sealResponse}`
        const first = yield* idempotent.execute({ ...request, key, sealResponse, requestId: "req_first" }, ok("{\"secret\":\"s\"}"))
        const second = yield* idempotent.execute({ ...request, key, sealResponse, requestId: "req_second" }, ok("{}"))
        expect(first).toEqual({ response: { status: 201, body: "{\"secret\":\"s\"}" }, replayed: false })
        expect(second).toEqual({ response: { status: 201, body: "{\"secret\":\"s\"}" }, replayed: true, originalRequestId: "req_first" })
      }
      // Answers kept before their request was: replayed as they are, naming no one.
      const unnamed = yield* idempotent.execute({ ...request, key: "unnamed" }, ok("{}"))
      const again = yield* idempotent.execute({ ...request, key: "unnamed", requestId: "req_later" }, ok("{}"))
      expect([unnamed.replayed, again]).toEqual([false, { response: { status: 201, body: "{}" }, replayed: true }])
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("a key that rides with the first write: an answer reached before any write is kept, a claim that meets the key replays", () =>
    Effect.gen(function*() {
      const idempotent = yield* IdempotentRequests
      const keys = yield* IdempotencyKeysRepository
      const riding = { ...request, reserveId: "pay" as const, ride: { render: (answer: unknown) => ({ status: 201, body: String(answer) }) } }
      // Refused before writing anything: the key is written with that answer, and replays it. (The
      // retry's operation reads again up to its first write, where it would meet the key: its own
      // answer is never given.)
      let refusals = 0
      const refuse = Effect.sync(() => ++refusals).pipe(Effect.map((n) => ({ status: 422, body: `refused ${n}` })))
      const refused = yield* idempotent.execute({ ...riding, key: "refused" }, refuse)
      const again = yield* idempotent.execute({ ...riding, key: "refused" }, refuse)
      expect([refused, again.replayed, again.response]).toEqual([
        { response: { status: 422, body: "refused 1" }, replayed: false },
        true,
        { status: 422, body: "refused 1" }
      ])
      // An operation whose first write carries the claim (here a store that writes only the key).
      let created = 0
      const create = Effect.gen(function*() {
        const scope = yield* IdempotencyScope
        const id = yield* scope.claimWith((claim) =>
          Option.isNone(claim)
            ? Effect.succeed(Option.some("resumed"))
            : Effect.map(keys.start(tenant, claim.value.record), (existing) =>
              Option.isNone(existing) ? Option.some(claim.value.record.resourceId!) : Option.none())
        )
        created++
        return { status: 201, body: id }
      })
      const first = yield* idempotent.execute({ ...riding, key: "created" }, create)
      const second = yield* idempotent.execute({ ...riding, key: "created" }, create)
      expect(first.response.body).toMatch(/^pay_/)
      expect([second.replayed, second.response, created]).toEqual([true, first.response, 1])
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("refuses the key for a different request, and keeps modes and organizations apart", () =>
    Effect.gen(function*() {
      const idempotent = yield* IdempotentRequests
      yield* idempotent.execute(request, ok("{}"))
      const reused = yield* Effect.flip(idempotent.execute({ ...request, fingerprint: "f2" }, ok("{}")))
      expect(reused._tag).toBe("IdempotencyKeyReused")
      const live = yield* idempotent.execute({ ...request, tenant: { ...tenant, livemode: true } }, ok("live"))
      expect(live.replayed).toBe(false)
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("answers 'in use' while the first request runs", () =>
    Effect.gen(function*() {
      const idempotent = yield* IdempotentRequests
      const gate = yield* Deferred.make<void>()
      const first = yield* Effect.fork(idempotent.execute(request, Effect.zipRight(Deferred.await(gate), ok("1"))))
      yield* TestClock.adjust("1 millis")
      const second = yield* Effect.flip(idempotent.execute(request, ok("2")))
      expect(second._tag).toBe("IdempotencyKeyInUse")
      yield* Deferred.succeed(gate, undefined)
      expect((yield* Fiber.join(first)).response.body).toBe("1")
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("does not save a 5xx, and hands the next request the object the first one created", () =>
    Effect.gen(function*() {
      const idempotent = yield* IdempotentRequests
      const failed = yield* idempotent.execute(
        request,
        Effect.flatMap(IdempotencyScope, ({ attach }) => Effect.zipRight(attach("pay_123"), Effect.succeed({ status: 500, body: "{}" })))
      )
      expect(failed.response.status).toBe(500)
      const resumed = yield* idempotent.execute(request, Effect.flatMap(IdempotencyScope, ({ recovered }) => ok(JSON.stringify(Option.getOrNull(recovered)))))
      expect(resumed).toEqual({ response: { status: 201, body: "\"pay_123\"" }, replayed: false })
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("a request that stalls past its lock cannot attach a second object once a retry took the key over", () =>
    Effect.gen(function*() {
      const idempotent = yield* IdempotentRequests
      const gate = yield* Deferred.make<void>()
      const stalled = yield* Effect.fork(idempotent.execute(
        request,
        Effect.flatMap(IdempotencyScope, ({ attach }) => Effect.zipRight(Deferred.await(gate), Effect.zipRight(attach("pay_stalled"), ok("stalled"))))
      ))
      yield* TestClock.adjust("3 minutes")
      const retry = yield* idempotent.execute(request, Effect.flatMap(IdempotencyScope, ({ attach }) => Effect.zipRight(attach("pay_retry"), ok("retry"))))
      expect(retry.response.body).toBe("retry")
      yield* Deferred.succeed(gate, undefined)
      const exit = yield* Fiber.await(stalled)
      expect(exit._tag).toBe("Failure")
      expect((yield* idempotent.execute(request, ok("again"))).response.body).toBe("retry")
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("releases the key when the operation dies, so a retry can resume", () =>
    Effect.gen(function*() {
      const idempotent = yield* IdempotentRequests
      const died = yield* Effect.exit(
        idempotent.execute(request, Effect.flatMap(IdempotencyScope, ({ attach }) => Effect.zipRight(attach("pay_9"), Effect.die("crash"))))
      )
      expect(died._tag).toBe("Failure")
      const retried = yield* idempotent.execute(request, Effect.flatMap(IdempotencyScope, ({ recovered }) => ok(Option.getOrElse(recovered, () => ""))))
      expect(retried.response.body).toBe("pay_9")
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("lets a crashed request's key be taken over once its lock lapses", () =>
    Effect.gen(function*() {
      const idempotent = yield* IdempotentRequests
      const keys = yield* IdempotencyKeysRepository
      // A request that crashed: its key is locked and unfinished, with a payment attached.
      const now = yield* DateTime.now
      yield* keys.start(tenant, {
        key: "key-1",
        fingerprint: "f1",
        resourceId: "pay_crashed",
        response: null,
        lockedUntil: DateTime.add(now, { minutes: 2 }),
        lockToken: "crashed-process",
        createdAt: now
      })
      expect((yield* Effect.flip(idempotent.execute(request, ok("x"))))._tag).toBe("IdempotencyKeyInUse")
      yield* TestClock.adjust("3 minutes")
      const taken = yield* idempotent.execute(request, Effect.flatMap(IdempotencyScope, ({ recovered }) => ok(Option.getOrElse(recovered, () => ""))))
      expect(taken.response.body).toBe("pay_crashed")
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("a request that outlived its lock cannot overwrite the answer of the one that took over", () =>
    Effect.gen(function*() {
      const idempotent = yield* IdempotentRequests
      const gate = yield* Deferred.make<void>()
      const slow = yield* Effect.fork(idempotent.execute(request, Effect.zipRight(Deferred.await(gate), ok("slow"))))
      yield* TestClock.adjust("3 minutes")
      const taker = yield* idempotent.execute(request, ok("taker"))
      expect(taker.response.body).toBe("taker")
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(slow)
      const replay = yield* idempotent.execute(request, ok("never"))
      expect([replay.replayed, replay.response.body]).toEqual([true, "taker"])
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("purges keys older than a day that nobody holds", () =>
    Effect.gen(function*() {
      const idempotent = yield* IdempotentRequests
      const keys = yield* IdempotencyKeysRepository
      yield* idempotent.execute(request, ok("old"))
      yield* TestClock.adjust("25 hours")
      yield* idempotent.execute({ ...request, key: "key-2" }, ok("new"))
      const now = yield* DateTime.now
      expect(yield* keys.purge({ createdBefore: DateTime.subtract(now, { hours: 24 }), now })).toBe(1)
      expect((yield* idempotent.execute(request, ok("again"))).replayed).toBe(false)
      expect((yield* idempotent.execute({ ...request, key: "key-2" }, ok("x"))).replayed).toBe(true)
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
