import { Clock, Context, Effect, Layer } from "effect"
import { admitCell, perSecond, type Rate } from "./CellRate.js"

export type { Rate } from "./CellRate.js"

export interface RateDecision {
  readonly allowed: boolean
  readonly retryAfterMs: number
}

/**
 * Counts requests per bucket (an API key, a client address's failed authentications) against a rate.
 * Adapters: in process (each process counts its own), or shared by every process through Redis.
 */
export class RateLimiter extends Context.Tag("core/RateLimiter")<RateLimiter, {
  /** One request of `bucket` at `perSecond` a second (a burst of `perSecond`), counted if allowed. */
  readonly take: (bucket: string, perSecond: number) => Effect.Effect<RateDecision>
  /**
   * One request of `bucket` at `rate` (a burst of `rate.count`). With `peek`, only whether it would be
   * allowed: nothing is counted.
   */
  readonly admit: (bucket: string, rate: Rate, options: { readonly peek: boolean }) => Effect.Effect<RateDecision>
}>() {
  /** In this process only: the fallback when nothing is shared, and the memory layer of the tests. */
  static readonly local = (): RateLimiter["Type"] => {
    const cells = new Map<string, number>()
    const admit = (bucket: string, rate: Rate, options: { readonly peek: boolean }) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        // Keys idle for a while are forgotten: their state would admit them anyway.
        if (cells.size > 10_000) { for (const [key, tat] of cells) if (tat < now * 1000) cells.delete(key) }
        const decision = admitCell(cells.get(bucket), now, rate)
        if (!options.peek) cells.set(bucket, decision.tat)
        return { allowed: decision.allowed, retryAfterMs: decision.retryAfterMs }
      })
    return { take: (bucket, count) => admit(bucket, perSecond(count), { peek: false }), admit }
  }

  static readonly layerLocal = Layer.sync(RateLimiter, RateLimiter.local)
}
