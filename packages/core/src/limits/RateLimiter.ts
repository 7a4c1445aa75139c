import { Clock, Context, Effect, Layer } from "effect"
import { admitCell } from "./CellRate.js"

export interface RateDecision {
  readonly allowed: boolean
  readonly retryAfterMs: number
}

/**
 * Counts requests per bucket (an API key) against a rate. Adapters: in process (each process counts
 * its own), or shared by every process through Redis.
 */
export class RateLimiter extends Context.Tag("core/RateLimiter")<RateLimiter, {
  readonly take: (bucket: string, perSecond: number) => Effect.Effect<RateDecision>
}>() {
  /** In this process only: the fallback when nothing is shared, and the memory layer of the tests. */
  static readonly local = (): RateLimiter["Type"] => {
    const cells = new Map<string, number>()
    return {
      take: (bucket, perSecond) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          // Keys idle for a while are forgotten: their state would admit them anyway.
          if (cells.size > 10_000) for (const [key, tat] of cells) if (tat < now * 1000) cells.delete(key)
          const decision = admitCell(cells.get(bucket), now, perSecond)
          cells.set(bucket, decision.tat)
          return { allowed: decision.allowed, retryAfterMs: decision.retryAfterMs }
        })
    }
  }

  static readonly layerLocal = Layer.sync(RateLimiter, RateLimiter.local)
}
