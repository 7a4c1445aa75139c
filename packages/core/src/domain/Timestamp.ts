import { DateTime, Effect, Schema } from "effect"

/** ISO 8601 UTC with milliseconds on the wire (`2026-11-22T08:54:45.123Z`), a `DateTime.Utc` inside. */
export const Timestamp = Schema.DateTimeUtc
export type Timestamp = DateTime.Utc

const EARLIEST = Date.UTC(1970, 0, 1)
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999)

/** A time a request filters by: within years 1970 to 9999, which every database can compare. */
export const TimeFilter = Timestamp.pipe(
  Schema.filter((time) => (time.epochMillis >= EARLIEST && time.epochMillis <= LATEST) || "must be between the years 1970 and 9999")
)

/** The current time from Effect's `Clock`, so `TestClock` drives every timestamp in tests. */
export const now: Effect.Effect<DateTime.Utc> = DateTime.now

export const plusMillis = (time: DateTime.Utc, millis: number): DateTime.Utc => DateTime.add(time, { millis })
