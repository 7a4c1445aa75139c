import { describe, expect, it } from "@effect/vitest"
import { Duration, Either } from "effect"
import * as fc from "fast-check"
import { addIntervals, type BillingInterval, nextBoundary, periodBoundary } from "../src/domain/subscriptions/BillingPeriod.js"
import { nextRetryAt } from "../src/domain/subscriptions/DunningSchedule.js"
import { InvoiceStateMachine } from "../src/domain/subscriptions/InvoiceStateMachine.js"
import type { SubscriptionStatus } from "../src/domain/subscriptions/Subscription.js"
import { SubscriptionStateMachine } from "../src/domain/subscriptions/SubscriptionStateMachine.js"
import { type BillingInput, transition } from "../src/domain/subscriptions/SubscriptionTransitions.js"

const INPUTS: ReadonlyArray<BillingInput> = [
  "first_charge_paid",
  "first_charge_pending",
  "incomplete_expired",
  "trial_ended_paid",
  "trial_ended_failed",
  "period_renewed_paid",
  "period_renewed_failed",
  "retry_failed",
  "retries_exhausted",
  "invoice_paid_late",
  "cancel_now",
  "period_ended_canceling",
  "schedule_change"
]

describe("subscription state machine", () => {
  it("no sequence of renewals, failures, retries, payments, cancels and plan changes leaves the table", () => {
    fc.assert(fc.property(
      fc.constantFrom<SubscriptionStatus>("incomplete", "trialing"),
      fc.array(fc.constantFrom(...INPUTS), { maxLength: 60 }),
      (first, inputs) => {
        expect(Either.isRight(SubscriptionStateMachine.move(null, first))).toBe(true)
        let status = first
        for (const input of inputs) {
          const to = transition(status, input)
          if (to === null) continue
          expect(Either.isRight(SubscriptionStateMachine.move(status, to))).toBe(true)
          status = to
        }
      }
    ))
  })

  it("changes nothing once canceled or expired, and those are the only final states", () => {
    expect([...SubscriptionStateMachine.terminal].sort()).toEqual(["canceled", "incomplete_expired"])
    for (const status of SubscriptionStateMachine.terminal) {
      for (const input of INPUTS) expect(transition(status, input)).toBeNull()
    }
  })

  it("shows the seed's moves with their events", () => {
    const event = (from: SubscriptionStatus, to: SubscriptionStatus) => Either.getOrThrow(SubscriptionStateMachine.move(from, to)).event
    expect(event("active", "past_due")).toBe("subscription.past_due")
    expect(event("past_due", "unpaid")).toBe("subscription.unpaid")
    expect(event("active", "canceled")).toBe("subscription.canceled")
    expect(event("incomplete", "active")).toBe("subscription.updated")
    expect(transition("active", "schedule_change")).toBe("active")
    expect(transition("past_due", "invoice_paid_late")).toBe("active")
  })

  it("an invoice is paid at most once and a paid or void one never moves", () => {
    expect([...InvoiceStateMachine.terminal].sort()).toEqual(["paid", "void"])
  })
})

const interval = fc.constantFrom<BillingInterval>("day", "week", "month", "year")
// Any minute from 1970 to 2200.
const instant = fc.integer({ min: 0, max: 7_258_118_400_000 / 60_000 }).map((minutes) => minutes * 60_000)
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate()

describe("billing periods", () => {
  it("keep the anchor's day (clamped to short months) and time of day, from the anchor every time", () => {
    fc.assert(fc.property(instant, fc.integer({ min: 1, max: 400 }), (anchor, n) => {
      const start = new Date(anchor)
      const end = new Date(addIntervals(anchor, "month", n))
      const months = start.getUTCFullYear() * 12 + start.getUTCMonth() + n
      expect(end.getUTCFullYear() * 12 + end.getUTCMonth()).toBe(months)
      expect(end.getUTCDate()).toBe(Math.min(start.getUTCDate(), daysIn(end.getUTCFullYear(), end.getUTCMonth())))
      expect(end.getUTCHours() * 60 + end.getUTCMinutes()).toBe(start.getUTCHours() * 60 + start.getUTCMinutes())
    }))
  })

  it("Jan 31 → Feb 28 or 29 → Mar 31; Feb 29 yearly → Feb 28, then Feb 29 in the next leap year", () => {
    const at = (text: string) => Date.parse(text)
    const iso = (millis: number) => new Date(millis).toISOString().slice(0, 10)
    const jan31 = at("2027-01-31T09:30:00Z")
    const monthly = { interval: "month" as const, interval_count: 1 }
    expect([1, 2, 3].map((n) => iso(periodBoundary(jan31, monthly, n)))).toEqual(["2027-02-28", "2027-03-31", "2027-04-30"])
    expect(iso(periodBoundary(at("2028-01-31T00:00:00Z"), monthly, 1))).toBe("2028-02-29")
    const yearly = { interval: "year" as const, interval_count: 1 }
    const leap = at("2028-02-29T00:00:00Z")
    expect([1, 4].map((n) => iso(periodBoundary(leap, yearly, n)))).toEqual(["2029-02-28", "2032-02-29"])
  })

  it("a period of `interval_count` intervals is that many single intervals", () => {
    fc.assert(fc.property(instant, interval, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 30 }), (
      anchor,
      unit,
      count,
      n
    ) => {
      expect(periodBoundary(anchor, { interval: unit, interval_count: count }, n))
        .toBe(periodBoundary(anchor, { interval: unit, interval_count: 1 }, n * count))
    }))
  })

  it("the next boundary is the first one strictly after the given time", () => {
    fc.assert(fc.property(instant, interval, fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 4_000 * 86_400_000 }), (
      anchor,
      unit,
      count,
      offset
    ) => {
      const plan = { interval: unit, interval_count: count }
      const after = anchor + offset
      const next = nextBoundary(anchor, plan, after)
      expect(next).toBeGreaterThan(after)
      let n = 1
      while (periodBoundary(anchor, plan, n) !== next) n++
      expect(n === 1 || periodBoundary(anchor, plan, n - 1) <= after).toBe(true)
    }))
  })
})

describe("dunning schedule", () => {
  it("retries 1, 3, 5 and 7 days after the first failure, then gives up", () => {
    const schedule = { retryAfter: [1, 3, 5, 7].map((days) => Duration.days(days)) }
    const first = Date.parse("2027-02-10T00:00:00Z")
    expect([1, 2, 3, 4, 5].map((made) => nextRetryAt(schedule, first, made))).toEqual([
      ...[1, 3, 5, 7].map((days) => first + days * 86_400_000),
      null
    ])
  })
})
