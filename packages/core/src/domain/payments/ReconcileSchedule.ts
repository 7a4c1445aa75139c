import { DateTime, Duration } from "effect"

/**
 * Where an unanswered attempt's reconciliation schedule counts from: when its call ended (it gave up
 * on the PSP and is `unknown`, or the PSP answered that it will tell later and it is `pending`: sent,
 * plus the time the call took), or, still `pending` with no call ended, when that call's deadline
 * (`callTimeout` after it was sent) has passed: till then the request that sent it may still be
 * waiting for the answer, and asking meanwhile only races it (and held the payment past its first
 * look: the next one came 2 minutes after the attempt was sent). An attempt whose answer was lost to
 * a 30 s deadline is first asked about 5 s after that.
 */
export const unansweredSince = (
  attempt: { readonly status: string; readonly created_at: DateTime.Utc; readonly latency_ms: number | null },
  callTimeout: Duration.Duration
): DateTime.Utc =>
  DateTime.add(attempt.created_at, {
    millis: attempt.latency_ms !== null ? attempt.latency_ms : Duration.toMillis(callTimeout)
  })

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
