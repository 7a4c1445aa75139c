import { Duration } from "effect"

/**
 * When a delivery is tried: at once, then after each of these delays, ±10 % jitter. Nine attempts
 * over about 69 hours; a delivery whose last attempt fails is exhausted, about 72 hours after the event.
 */
export const RETRY_DELAYS: ReadonlyArray<Duration.Duration> = [
  Duration.minutes(1),
  Duration.minutes(5),
  Duration.minutes(30),
  Duration.hours(2),
  Duration.hours(6),
  Duration.hours(12),
  Duration.hours(24),
  Duration.hours(24)
]

export const MAX_ATTEMPTS = RETRY_DELAYS.length + 1

/** A receiver that has not answered 2xx by then has failed the attempt. */
export const ATTEMPT_TIMEOUT = Duration.seconds(10)

export const JITTER = 0.1

/**
 * The delay before the next attempt once `attemptsMade` attempts have failed, jittered by `unit`
 * (a uniform number in [0, 1)); `undefined` when no attempt is left.
 */
export const nextDelayMillis = (attemptsMade: number, unit: number): number | undefined => {
  const base = RETRY_DELAYS[attemptsMade - 1]
  if (base === undefined || attemptsMade < 1) return undefined
  return Math.round(Duration.toMillis(base) * (1 - JITTER + 2 * JITTER * unit))
}
