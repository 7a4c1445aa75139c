import { DateTime, Duration } from "effect"

/**
 * Where an unanswered attempt's reconciliation schedule counts from: when its call gave up on the
 * PSP (it is `unknown`: sent, plus the time it waited), or, still `pending` (a request still
 * waiting on the PSP, or one that died), when it was sent. An attempt whose answer was lost to a
 * 30 s deadline is first asked about 5 s after that, not 5 s after it was sent (while the call
 * that sent it was still waiting), which left the next look 2 minutes out.
 */
export const unansweredSince = (
  attempt: { readonly status: string; readonly created_at: DateTime.Utc; readonly latency_ms: number | null }
): DateTime.Utc =>
  attempt.status === "unknown" && attempt.latency_ms !== null ? DateTime.add(attempt.created_at, { millis: attempt.latency_ms }) : attempt.created_at

/**
 * When an attempt nobody heard back from is next asked about, after a try at `now` left it
 * unanswered: the first point of `schedule` (offsets from `sentAt`, its `unansweredSince`) still
 * ahead, and past the schedule `steady` after `now`. Never before `now`, so a lagging worker does
 * not ask twice at once.
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

/** How long an attempt must have been unanswered before it is first asked about: the schedule's first point. */
export const firstReconcileAfter = (schedule: ReadonlyArray<Duration.Duration>): Duration.Duration => schedule[0] ?? Duration.zero
