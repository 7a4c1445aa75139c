import { describe, expect, it } from "@effect/vitest"
import { FailedAuthentications, RateLimiter } from "@orchestrator/core"
import { Effect, Either, Layer } from "effect"
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

  it.scoped("a rate over a longer period is shared too, and a peek counts nothing", () =>
    Effect.gen(function*() {
      const [first, second] = yield* twoProcesses(REDIS_URL)
      const bucket = `auth-failures:${Math.random().toString(36).slice(2)}`
      const rate = { count: 4, periodMs: 60_000 }
      const peeks = yield* Effect.forEach(Array.from({ length: 10 }), () => first.admit(bucket, rate, { peek: true }))
      expect(allowedOf(peeks)).toBe(10)
      yield* Effect.forEach(Array.from({ length: 2 }), () => first.admit(bucket, rate, { peek: false }))
      yield* Effect.forEach(Array.from({ length: 2 }), () => second.admit(bucket, rate, { peek: false }))
      const refused = yield* first.admit(bucket, rate, { peek: true })
      expect(refused.allowed).toBe(false)
      // One more every 15 s: the wait is most of that, never more.
      expect(refused.retryAfterMs).toBeGreaterThan(10_000)
      expect(refused.retryAfterMs).toBeLessThanOrEqual(15_000)
      expect((yield* second.admit(bucket, rate, { peek: false })).allowed).toBe(false)
    }))

  it.scoped("failed authentications of one address are counted across processes", () =>
    Effect.gen(function*() {
      // Its own keys in Redis: the address is the same in every run.
      const prefix = `test-${Math.random().toString(36).slice(2)}:`
      const process = () =>
        Layer.build(FailedAuthentications.layer.pipe(Layer.provide(RedisRateLimiterLive(REDIS_URL, { prefix })))).pipe(
          Effect.map((context) => context.unsafeMap.get(FailedAuthentications.key) as FailedAuthentications["Type"])
        )
      const [first, second] = [yield* process(), yield* process()]
      const counted = [
        ...yield* Effect.forEach(Array.from({ length: 12 }), () => Effect.either(first.record("203.0.113.9"))),
        ...yield* Effect.forEach(Array.from({ length: 8 }), () => Effect.either(second.record("203.0.113.9")))
      ]
      expect(counted.every(Either.isRight)).toBe(true)
      expect(Either.isLeft(yield* Effect.either(second.admit("203.0.113.9")))).toBe(true)
      expect(Either.isLeft(yield* Effect.either(first.admit("203.0.113.9")))).toBe(true)
      yield* first.admit("203.0.113.10")
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
