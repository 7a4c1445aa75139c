import { Context, type Effect } from "effect"
import type { Rate } from "../domain/limits/CellRate.js"

export type { Rate } from "../domain/limits/CellRate.js"

export interface RateDecision {
  readonly allowed: boolean
  readonly retryAfterMs: number
}

/**
 * Counts requests per bucket (an API key, a client address's failed authentications) against a rate.
 * Adapters: in process (`MemoryRateLimiter`: each process counts its own), or shared by every process
 * through Redis (`@orchestrator/rate-limit-redis`).
 */
export class RateLimiter extends Context.Tag("core/RateLimiter")<RateLimiter, {
  /** One request of `bucket` at `perSecond` a second (a burst of `perSecond`), counted if allowed. */
  readonly take: (bucket: string, perSecond: number) => Effect.Effect<RateDecision>
  /**
   * One request of `bucket` at `rate` (a burst of `rate.count`). With `peek`, only whether it would be
   * allowed: nothing is counted.
   */
  readonly admit: (bucket: string, rate: Rate, options: { readonly peek: boolean }) => Effect.Effect<RateDecision>
}>() {}
