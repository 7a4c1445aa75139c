import { DateTime, Effect, Schema } from "effect"

/** ISO 8601 UTC with milliseconds on the wire (`2026-11-22T08:54:45.123Z`), a `DateTime.Utc` inside. */
export const Timestamp = Schema.DateTimeUtc
export type Timestamp = DateTime.Utc

/** The current time from Effect's `Clock`, so `TestClock` drives every timestamp in tests. */
export const now: Effect.Effect<DateTime.Utc> = DateTime.now

export const plusMillis = (time: DateTime.Utc, millis: number): DateTime.Utc =>
  DateTime.add(time, { millis })
