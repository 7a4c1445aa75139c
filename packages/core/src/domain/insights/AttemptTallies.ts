import { DateTime } from "effect"
import type { ProviderBucket, ProviderStats } from "./Insights.js"

/** The attempts of one provider in one bucket, as storage counts them. */
export interface AttemptTally {
  readonly provider: string
  /** Start of the bucket, in epoch milliseconds, a multiple of the bucket length. */
  readonly bucketStart: number
  readonly attempts: number
  readonly succeeded: number
  readonly failed: number
  readonly latencySum: number
  readonly latencyCount: number
}

/** An authorized attempt went through as much as a captured one; a failed one did not. */
export const SUCCEEDED_ATTEMPT_STATUSES: ReadonlyArray<string> = ["succeeded", "requires_capture"]
export const FAILED_ATTEMPT_STATUSES: ReadonlyArray<string> = ["failed"]

/** The bucket an instant falls in. */
export const bucketOf = (epochMillis: number, bucketMillis: number) => Math.floor(epochMillis / bucketMillis) * bucketMillis

/** Adds one attempt to the tallies of its provider and bucket (the in-memory storage counts this way). */
export const tallyAttempt = (
  tallies: Map<string, AttemptTally>,
  attempt: { readonly provider: string; readonly status: string; readonly latencyMs: number | null; readonly at: number },
  bucketMillis: number
) => {
  const bucketStart = bucketOf(attempt.at, bucketMillis)
  const key = `${attempt.provider}\u0000${bucketStart}`
  const current = tallies.get(key) ??
    { provider: attempt.provider, bucketStart, attempts: 0, succeeded: 0, failed: 0, latencySum: 0, latencyCount: 0 }
  tallies.set(key, {
    ...current,
    attempts: current.attempts + 1,
    succeeded: current.succeeded + (SUCCEEDED_ATTEMPT_STATUSES.includes(attempt.status) ? 1 : 0),
    failed: current.failed + (FAILED_ATTEMPT_STATUSES.includes(attempt.status) ? 1 : 0),
    latencySum: current.latencySum + (attempt.latencyMs ?? 0),
    latencyCount: current.latencyCount + (attempt.latencyMs === null ? 0 : 1)
  })
}

const rate = (succeeded: number, failed: number) => (succeeded + failed === 0 ? null : succeeded / (succeeded + failed))
const mean = (sum: number, count: number) => (count === 0 ? null : Math.round(sum / count))

/**
 * Per provider, the totals of the window and one bucket per step from `since` to `until` (empty
 * buckets as zeros), providers by most attempts first.
 */
export const summarizeTallies = (
  tallies: ReadonlyArray<AttemptTally>,
  since: number,
  until: number,
  bucketMillis: number
): ReadonlyArray<ProviderStats> => {
  const starts: Array<number> = []
  for (let start = bucketOf(since, bucketMillis); start <= until; start += bucketMillis) starts.push(start)
  const byProvider = new Map<string, Map<number, AttemptTally>>()
  for (const tally of tallies) {
    const buckets = byProvider.get(tally.provider) ?? new Map<number, AttemptTally>()
    const previous = buckets.get(tally.bucketStart)
    buckets.set(
      tally.bucketStart,
      previous === undefined ? tally : {
        ...previous,
        attempts: previous.attempts + tally.attempts,
        succeeded: previous.succeeded + tally.succeeded,
        failed: previous.failed + tally.failed,
        latencySum: previous.latencySum + tally.latencySum,
        latencyCount: previous.latencyCount + tally.latencyCount
      }
    )
    byProvider.set(tally.provider, buckets)
  }
  const stats = [...byProvider].map(([provider, buckets]): ProviderStats => {
    const series = starts.map((start): ProviderBucket => {
      const tally = buckets.get(start)
      return {
        start: DateTime.unsafeMake(start),
        attempts: tally?.attempts ?? 0,
        succeeded: tally?.succeeded ?? 0,
        failed: tally?.failed ?? 0,
        success_rate: tally === undefined ? null : rate(tally.succeeded, tally.failed),
        latency_ms_avg: tally === undefined ? null : mean(tally.latencySum, tally.latencyCount)
      }
    })
    const all = [...buckets.values()].filter((tally) => tally.bucketStart >= starts[0]! && tally.bucketStart <= until)
    const sum = (pick: (tally: AttemptTally) => number) => all.reduce((total, tally) => total + pick(tally), 0)
    return {
      provider,
      attempts: sum((tally) => tally.attempts),
      succeeded: sum((tally) => tally.succeeded),
      failed: sum((tally) => tally.failed),
      success_rate: rate(sum((tally) => tally.succeeded), sum((tally) => tally.failed)),
      latency_ms_avg: mean(sum((tally) => tally.latencySum), sum((tally) => tally.latencyCount)),
      buckets: series
    }
  })
  return stats.sort((a, b) => b.attempts - a.attempts || (a.provider < b.provider ? -1 : 1))
}
