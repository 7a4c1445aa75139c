import { describe, expect, it } from "vitest"
import { type AttemptTally, summarizeTallies, tallyAttempt } from "../src/domain/insights/AttemptTallies.js"

const HOUR = 3_600_000

const tallied = (attempts: ReadonlyArray<{ provider: string; status: string; latencyMs: number | null; at: number }>) => {
  const tallies = new Map<string, AttemptTally>()
  for (const attempt of attempts) tallyAttempt(tallies, attempt, HOUR)
  return [...tallies.values()]
}

describe("attempt tallies", () => {
  it("buckets attempts per provider and hour, with empty hours as zeros and rates over settled attempts only", () => {
    const since = 10 * HOUR + 1_000
    const until = 13 * HOUR + 5_000
    const stats = summarizeTallies(
      tallied([
        { provider: "a", status: "succeeded", latencyMs: 100, at: 10 * HOUR + 2_000 },
        { provider: "a", status: "failed", latencyMs: 300, at: 10 * HOUR + 3_000 },
        { provider: "a", status: "requires_capture", latencyMs: null, at: 12 * HOUR },
        { provider: "a", status: "pending", latencyMs: null, at: 12 * HOUR + 1 },
        { provider: "b", status: "failed", latencyMs: 50, at: 13 * HOUR }
      ]),
      since,
      until,
      HOUR
    )
    expect(stats.map((provider) => provider.provider)).toEqual(["a", "b"])
    const [a, b] = stats
    expect([a!.attempts, a!.succeeded, a!.failed, a!.success_rate, a!.latency_ms_avg]).toEqual([4, 2, 1, 2 / 3, 200])
    expect(a!.buckets.map((bucket) => bucket.start.epochMillis)).toEqual([10, 11, 12, 13].map((hour) => hour * HOUR))
    expect(a!.buckets.map((bucket) => bucket.attempts)).toEqual([2, 0, 2, 0])
    expect(a!.buckets.map((bucket) => bucket.success_rate)).toEqual([0.5, null, 1, null])
    expect(a!.buckets.map((bucket) => bucket.latency_ms_avg)).toEqual([200, null, null, null])
    expect([b!.success_rate, b!.buckets.map((bucket) => bucket.failed)]).toEqual([0, [0, 0, 0, 1]])
  })

  it("has no provider when nothing was attempted", () => {
    expect(summarizeTallies([], 0, 5 * HOUR, HOUR)).toEqual([])
  })
})
