import { DateTime, Duration } from "effect"

/**
 * When an attempt nobody heard back from is next asked about, after a try at `now` left it
 * unanswered: the first point of `schedule` (offsets from `sentAt`) still ahead, and past the
 * schedule `steady` after `now`. Never before `now`, so a lagging worker does not ask twice at once.
 */
export const nextReconcileAt = (
  sentAt: DateTime.Utc,
  now: DateTime.Utc,
  schedule: ReadonlyArray<Duration.Duration>,
  steady: Duration.Duration
): DateTime.Utc => {
  for (const offset of schedule) {
    const at = DateTime.add(sentAt, { millis: Duration.toMillis(offset) })
    if (DateTime.greaterThan(at, now)) return at
  }
  return DateTime.add(now, { millis: Duration.toMillis(steady) })
}

/** How old an attempt must be before it is first asked about: the schedule's first point. */
export const firstReconcileAfter = (schedule: ReadonlyArray<Duration.Duration>): Duration.Duration => schedule[0] ?? Duration.zero
