import { Context, Duration } from "effect"

/**
 * When a failed period charge is tried again, counted from the first failure; after the last retry
 * fails the subscription becomes `unpaid`. Data, so an organization or a test can set its own.
 */
export interface DunningSchedule {
  readonly retryAfter: ReadonlyArray<Duration.Duration>
}

export class Dunning extends Context.Reference<Dunning>()("core/Dunning", {
  defaultValue: (): DunningSchedule => ({ retryAfter: [1, 3, 5, 7].map((days) => Duration.days(days)) })
}) {}

/**
 * The time of the next retry once `attemptsMade` attempts have failed (the first attempt included),
 * or null when the schedule is spent.
 */
export const nextRetryAt = (schedule: DunningSchedule, firstFailureMillis: number, attemptsMade: number): number | null => {
  const wait = schedule.retryAfter[attemptsMade - 1]
  return wait === undefined ? null : firstFailureMillis + Duration.toMillis(wait)
}
