import { describe, expect, it } from "@effect/vitest"
import { DateTime, Duration, Effect, TestClock } from "effect"
import { firstReconcileAfter, nextReconcileAt, unansweredSince } from "../src/domain/payments/ReconcileSchedule.js"
import { PaymentRecovery } from "../src/features/payments/PaymentRecovery.js"
import { Payments } from "../src/features/payments/Payments.js"
import { createUnanswered, run } from "./support/PaymentsFixture.js"
import { createTenant } from "./support/TestServices.js"

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

describe("where the schedule of an unanswered attempt counts from", () => {
  const attempt = (status: string, latency: number | null) => ({ status, created_at: sent, latency_ms: latency })

  it("from when its call gave up once it is unknown; while it is still pending, from when its call's deadline is over", () => {
    expect(DateTime.formatIso(unansweredSince(attempt("unknown", 1_000), Duration.seconds(30)))).toBe(DateTime.formatIso(after(1)))
    expect(DateTime.formatIso(unansweredSince(attempt("pending", null), Duration.seconds(30)))).toBe(DateTime.formatIso(after(30)))
  })

  it("from the PSP's answer when it said it will tell later (a capture PENDING): no request of ours waits on it any more", () => {
    expect(DateTime.formatIso(unansweredSince(attempt("pending", 2_000), Duration.seconds(30)))).toBe(DateTime.formatIso(after(2)))
  })
})

describe("the worker's looks at an attempt whose PSP never answered (TestClock)", () => {
  it.effect("5 s after its call gave up on the PSP, then 30 s and 2 min after, then every 2 min (finding: first look 2 min later)", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        // The PSP never answers the payment; every later call finds it unreachable, so each look
        // leaves the attempt unknown and the payment processing.
        const payment = yield* createUnanswered(tenant, "tok_lostThenDown")
        const [unknown] = payment.attempts
        expect([payment.status, unknown!.status, unknown!.latency_ms]).toEqual(["processing", "unknown", 30_000])
        const gaveUp = DateTime.toEpochMillis(unansweredSince(unknown!, Duration.seconds(30)))
        const reference = unknown!.id
        const looks = () => psp.sends.filter((send) => send.reference === reference).slice(1).map((send) => (send.at - gaveUp) / 1000)
        const reconcilePass = Effect.flatMap(PaymentRecovery, (recovery) => recovery.jobs.find((job) => job.name === "reconcile-payments")!.run)

        // A pass every second for 6 minutes after the call gave up, as the worker would run them.
        for (let second = 0; second <= 360; second++) {
          yield* TestClock.setTime(gaveUp + second * 1_000)
          yield* reconcilePass
          if (second === 4) expect(looks()).toEqual([])
        }
        expect(looks()).toEqual([5, 30, 120, 240, 360])
        expect((yield* (yield* Payments).retrieve(tenant, payment.id)).status).toBe("processing")
      })
    ))
})
