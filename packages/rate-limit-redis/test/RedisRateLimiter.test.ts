import { RateLimiter } from "@orchestrator/core/limits/RateLimiter"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { RedisRateLimiterLive } from "../src/RedisRateLimiter.js"

/** The machine's Redis (CI starts it); REDIS_URL points elsewhere. */
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379"

/** Two processes' limiters: each its own client and its own in-process fallback. */
const twoProcesses = (url: string) =>
  Effect.all([
    Layer.build(RedisRateLimiterLive(url)).pipe(Effect.map((context) => context.unsafeMap.get(RateLimiter.key) as RateLimiter["Type"])),
    Layer.build(RedisRateLimiterLive(url)).pipe(Effect.map((context) => context.unsafeMap.get(RateLimiter.key) as RateLimiter["Type"]))
  ])

const allowedOf = (decisions: ReadonlyArray<{ readonly allowed: boolean }>) => decisions.filter((decision) => decision.allowed).length

describe("rate limits shared through Redis", () => {
  it.scoped("two processes draw on one budget per key", () =>
    Effect.gen(function*() {
      const [first, second] = yield* twoProcesses(REDIS_URL)
      const bucket = `key_${Math.random().toString(36).slice(2)}`
      const fromFirst = yield* Effect.forEach(Array.from({ length: 3 }), () => first.take(bucket, 5))
      const fromSecond = yield* Effect.forEach(Array.from({ length: 2 }), () => second.take(bucket, 5))
      expect(allowedOf([...fromFirst, ...fromSecond])).toBe(5)
      const refused = yield* second.take(bucket, 5)
      expect(refused.allowed).toBe(false)
      expect(refused.retryAfterMs).toBeGreaterThan(0)
      expect(refused.retryAfterMs).toBeLessThanOrEqual(200)
      expect((yield* first.take(bucket, 5)).allowed).toBe(false)
      // Another key is counted apart.
      expect((yield* first.take(`${bucket}_other`, 5)).allowed).toBe(true)
    }))

  it.scoped("with Redis unreachable each process counts for itself: limits loosen, nothing fails", () =>
    Effect.gen(function*() {
      // Nothing listens on port 1: every call fails at once and falls back.
      const [first, second] = yield* twoProcesses("redis://127.0.0.1:1")
      const fromFirst = yield* Effect.forEach(Array.from({ length: 6 }), () => first.take("key_outage", 5))
      const fromSecond = yield* Effect.forEach(Array.from({ length: 6 }), () => second.take("key_outage", 5))
      expect([allowedOf(fromFirst), allowedOf(fromSecond)]).toEqual([5, 5])
    }))
})
