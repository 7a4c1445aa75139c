import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer, TestClock } from "effect"
import { FailedAuthenticationLimit, FailedAuthentications } from "../src/features/limits/FailedAuthentications.js"
import { MemoryRateLimiter } from "../src/memory/MemoryRateLimiter.js"

const layer = FailedAuthentications.layer.pipe(Layer.provide(MemoryRateLimiter))

const failTimes = (failures: FailedAuthentications["Type"], address: string, times: number) =>
  Effect.forEach(Array.from({ length: times }), () => Effect.either(failures.record(address)))

describe("failed authentications per client address", () => {
  it.effect("20 failures at once, then one every 3 s: refused before any key is looked at, told how long to wait", () =>
    Effect.gen(function*() {
      const failures = yield* FailedAuthentications
      expect(yield* FailedAuthenticationLimit).toEqual({ count: 20, periodMs: 60_000 })
      // Looking is free: an address that only ever succeeds is never counted.
      for (let i = 0; i < 100; i++) yield* failures.admit("203.0.113.7")
      const burst = yield* failTimes(failures, "203.0.113.7", 20)
      expect(burst.every(Either.isRight)).toBe(true)
      const refused = yield* Effect.flip(failures.admit("203.0.113.7"))
      expect(refused).toMatchObject({ _tag: "TooManyFailedAuthentications", retryAfterMs: 3000 })
      // Racing past `admit`, the failure one too many is refused as it is counted.
      expect((yield* Effect.flip(failures.record("203.0.113.7")))._tag).toBe("TooManyFailedAuthentications")
      // Another address has its own budget.
      yield* failures.admit("198.51.100.1")

      yield* TestClock.adjust("2999 millis")
      expect(Either.isLeft(yield* Effect.either(failures.admit("203.0.113.7")))).toBe(true)
      yield* TestClock.adjust("1 millis")
      yield* failures.admit("203.0.113.7")
      yield* failures.record("203.0.113.7")
      expect(Either.isLeft(yield* Effect.either(failures.admit("203.0.113.7")))).toBe(true)
      // A quiet minute gives back the whole burst.
      yield* TestClock.adjust("1 minute")
      expect((yield* failTimes(failures, "203.0.113.7", 20)).every(Either.isRight)).toBe(true)
      expect(Either.isLeft(yield* Effect.either(failures.admit("203.0.113.7")))).toBe(true)
    }).pipe(Effect.provide(layer)))

  it.effect("the operator's own limit replaces the default", () =>
    Effect.gen(function*() {
      const failures = yield* FailedAuthentications
      expect((yield* failTimes(failures, "192.0.2.1", 3)).every(Either.isRight)).toBe(true)
      const refused = yield* Effect.flip(failures.admit("192.0.2.1"))
      expect(refused.retryAfterMs).toBe(1000)
    }).pipe(
      Effect.provide(layer.pipe(Layer.provide(Layer.succeed(FailedAuthenticationLimit, { count: 3, periodMs: 3000 }))))
    ))
})
