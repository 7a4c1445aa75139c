import { Clock, Effect, Layer } from "effect"
import { admitCell, perSecond, type Rate } from "../domain/limits/CellRate.js"
import { RateLimiter } from "../ports/RateLimiter.js"

/** In this process only: the fallback when nothing is shared, and the memory layer of the tests. */
export const makeMemoryRateLimiter = (): RateLimiter["Type"] => {
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

export const MemoryRateLimiter = Layer.sync(RateLimiter, makeMemoryRateLimiter)
