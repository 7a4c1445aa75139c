/**
 * The generic cell rate algorithm (GCRA), as pure arithmetic: a key may send `count` requests per
 * `periodMs`, in a burst of up to `count` at once. The whole state of a key is one number, its
 * theoretical arrival time (`tat`), which is why the same arithmetic runs in process and inside
 * Redis in one atomic step. Times are whole microseconds, so no rounding error ever refuses the
 * last request of a burst.
 */
export interface CellRateDecision {
  readonly allowed: boolean
  /** The state to keep for the key, in microseconds (unchanged when refused). */
  readonly tat: number
  /** When refused, how long until one more request is allowed. */
  readonly retryAfterMs: number
}

/** `count` requests per `periodMs`: an API key's rate is `{ count: perSecond, periodMs: 1000 }`. */
export interface Rate {
  readonly count: number
  readonly periodMs: number
}

export const perSecond = (count: number): Rate => ({ count, periodMs: 1000 })

export const admitCell = (tat: number | undefined, nowMs: number, rate: Rate): CellRateDecision => {
  const now = nowMs * 1000
  const interval = Math.round((rate.periodMs * 1000) / rate.count)
  const burst = interval * rate.count
  const start = Math.max(tat ?? now, now)
  const next = start + interval
  const allowAt = next - burst
  return now < allowAt
    ? { allowed: false, tat: start, retryAfterMs: Math.ceil((allowAt - now) / 1000) }
    : { allowed: true, tat: next, retryAfterMs: 0 }
}
