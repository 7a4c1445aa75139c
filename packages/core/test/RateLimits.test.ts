import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { RateLimits } from "../src/features/limits/RateLimits.js"
import { Organizations } from "../src/features/tenancy/Organizations.js"
import { makeMemoryRateLimiter } from "../src/memory/MemoryRateLimiter.js"
import type { RateLimiter } from "../src/ports/RateLimiter.js"
import { makeTestServices } from "./support/TestServices.js"

const takeMany = (limiter: RateLimiter["Type"], bucket: string, perSecond: number, count: number) =>
  Effect.forEach(Array.from({ length: count }), () => limiter.take(bucket, perSecond))

describe("rate limits", () => {
  it.effect("a key may send its rate in a burst, then one more per interval, told how long to wait", () =>
    Effect.gen(function*() {
      const limiter = makeMemoryRateLimiter()
      const burst = yield* takeMany(limiter, "key_a", 10, 10)
      expect(burst.every((decision) => decision.allowed)).toBe(true)
      const refused = yield* limiter.take("key_a", 10)
      expect(refused).toEqual({ allowed: false, retryAfterMs: 100 })
      // Another key has its own budget.
      expect((yield* limiter.take("key_b", 10)).allowed).toBe(true)
      yield* TestClock.adjust("99 millis")
      expect((yield* limiter.take("key_a", 10)).allowed).toBe(false)
      yield* TestClock.adjust("1 millis")
      expect((yield* limiter.take("key_a", 10)).allowed).toBe(true)
      expect((yield* limiter.take("key_a", 10)).allowed).toBe(false)
      // A full second idle restores the whole burst.
      yield* TestClock.adjust("1 second")
      expect((yield* takeMany(limiter, "key_a", 10, 10)).every((decision) => decision.allowed)).toBe(true)
    }))

  it.effect("the organization's own limit, per mode, replaces the default within 10 seconds", () =>
    Effect.gen(function*() {
      const organizations = yield* Organizations
      const limits = yield* RateLimits
      const organization = yield* organizations.create("Limited")
      const test = { organizationId: organization.id, livemode: false }
      const live = { organizationId: organization.id, livemode: true }
      expect([yield* limits.limitOf(test), yield* limits.limitOf(live)]).toEqual([25, 100])
      yield* organizations.setRateLimits(organization.id, { test: 3 })
      expect(yield* limits.limitOf(test)).toBe(25)
      yield* TestClock.adjust("11 seconds")
      expect([yield* limits.limitOf(test), yield* limits.limitOf(live)]).toEqual([3, 100])
      for (let i = 0; i < 3; i++) yield* limits.check(test, "key_1")
      const refused = yield* Effect.flip(limits.check(test, "key_1"))
      expect([refused._tag, refused.perSecond]).toEqual(["RateLimited", 3])
      yield* organizations.setRateLimits(organization.id, { test: null })
      yield* TestClock.adjust("11 seconds")
      expect(yield* limits.limitOf(test)).toBe(25)
    }).pipe(Effect.provide(makeTestServices().layer)))
})
