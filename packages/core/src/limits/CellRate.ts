/**
 * The generic cell rate algorithm (GCRA), as pure arithmetic: a key may send `perSecond` requests
 * a second, in a burst of up to `perSecond` at once. The whole state of a key is one number, its
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

export const admitCell = (tat: number | undefined, nowMs: number, perSecond: number): CellRateDecision => {
  const now = nowMs * 1000
  const interval = Math.round(1_000_000 / perSecond)
  const burst = interval * perSecond
  const start = Math.max(tat ?? now, now)
  const next = start + interval
  const allowAt = next - burst
  return now < allowAt
    ? { allowed: false, tat: start, retryAfterMs: Math.ceil((allowAt - now) / 1000) }
    : { allowed: true, tat: next, retryAfterMs: 0 }
}
