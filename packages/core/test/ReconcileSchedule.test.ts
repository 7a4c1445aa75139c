import { describe, expect, it } from "@effect/vitest"
import { DateTime, Duration } from "effect"
import { firstReconcileAfter, nextReconcileAt } from "../src/payments/ReconcileSchedule.js"

const schedule = [Duration.seconds(5), Duration.seconds(30), Duration.minutes(2)]
const sent = DateTime.unsafeMake("2026-01-01T00:00:00Z")
const after = (seconds: number) => DateTime.add(sent, { seconds })
const next = (nowSeconds: number) => DateTime.formatIso(nextReconcileAt(sent, after(nowSeconds), schedule, Duration.minutes(2)))

describe("when an unanswered attempt is asked about next", () => {
  it("first 5 s after it was sent", () => {
    expect(Duration.toMillis(firstReconcileAfter(schedule))).toBe(5_000)
  })

  it("then 30 s and 2 min after it was sent, whenever the try before ran", () => {
    expect(next(5)).toBe(DateTime.formatIso(after(30)))
    expect(next(12)).toBe(DateTime.formatIso(after(30)))
    expect(next(30)).toBe(DateTime.formatIso(after(120)))
    expect(next(95)).toBe(DateTime.formatIso(after(120)))
  })

  it("past the schedule, every steady interval from the last try", () => {
    expect(next(120)).toBe(DateTime.formatIso(after(240)))
    expect(next(1_000)).toBe(DateTime.formatIso(after(1_120)))
  })
})
