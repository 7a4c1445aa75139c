/**
 * Billing periods as pure arithmetic on UTC instants. Every boundary is computed from the anchor
 * (never from the previous boundary), so a month period anchored on the 31st ends on Feb 28/29 and
 * then on Mar 31 again, and the time of day never drifts.
 */
export type BillingInterval = "day" | "week" | "month" | "year"

const DAY = 86_400_000

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate()

/** `anchor` moved by `count` whole intervals, the day of month clamped to the month's length. */
export const addIntervals = (anchorMillis: number, interval: BillingInterval, count: number): number => {
  switch (interval) {
    case "day":
      return anchorMillis + count * DAY
    case "week":
      return anchorMillis + count * 7 * DAY
    case "month":
    case "year": {
      const anchor = new Date(anchorMillis)
      const months = interval === "month" ? count : count * 12
      const total = anchor.getUTCFullYear() * 12 + anchor.getUTCMonth() + months
      const year = Math.floor(total / 12)
      const month = total - year * 12
      const day = Math.min(anchor.getUTCDate(), daysInMonth(year, month))
      const timeOfDay = anchorMillis - Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth(), anchor.getUTCDate())
      return Date.UTC(year, month, day) + timeOfDay
    }
  }
}

/** The end of period `n` (1 = the first) of a schedule anchored at `anchorMillis`. */
export const periodBoundary = (
  anchorMillis: number,
  plan: { readonly interval: BillingInterval; readonly interval_count: number },
  n: number
): number => addIntervals(anchorMillis, plan.interval, n * plan.interval_count)

/** The first boundary of the schedule strictly after `afterMillis`. */
export const nextBoundary = (
  anchorMillis: number,
  plan: { readonly interval: BillingInterval; readonly interval_count: number },
  afterMillis: number
): number => {
  // A first guess from the average length, then exact steps: no loop over years of daily periods.
  const approximate = { day: DAY, week: 7 * DAY, month: 30.436875 * DAY, year: 365.2425 * DAY }[plan.interval]
  let n = Math.max(1, Math.floor((afterMillis - anchorMillis) / (approximate * plan.interval_count)) - 1)
  while (n > 1 && periodBoundary(anchorMillis, plan, n - 1) > afterMillis) n--
  while (periodBoundary(anchorMillis, plan, n) <= afterMillis) n++
  return periodBoundary(anchorMillis, plan, n)
}
