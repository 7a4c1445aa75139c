import { describe, expect, it } from "@effect/vitest"
import { addIntervals, type NativeSubscriptionRequest, type NativeSubscriptions } from "@orchestrator/core"
import { Effect, TestClock } from "effect"
import { SandboxLedger } from "../src/sandbox/SandboxLedger.js"
import { sandboxSubscriptionsJob } from "../src/sandbox/SandboxSubscriptions.js"
import { EUR, sandbox, withLedger } from "./fixtures.js"

const DAY = 86_400_000

const request = (overrides: Partial<NativeSubscriptionRequest> = {}): NativeSubscriptionRequest => ({
  reference: "sub_1",
  amount: 1999,
  currency: EUR,
  interval: "month",
  intervalCount: 1,
  startMillis: 0,
  trialEndMillis: null,
  paymentMethod: { type: "card", token: "tok_visa" },
  customer: null,
  testClock: false,
  ...overrides
})

/** The subscription webhooks the sandbox queued and has not handed out yet: [period start, attempt, status, next attempt]. */
const newReports = Effect.gen(function*() {
  const ledger = yield* SandboxLedger
  const owed = yield* ledger.claimNotifications(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 100)
  for (const notification of owed) yield* ledger.markNotified(notification.id, 0)
  return owed.map((notification) => {
    const { data } = JSON.parse(notification.payload)
    return data.invoice === null
      ? [data.subscription.status]
      : [data.invoice.period_start, data.invoice.attempt, data.invoice.status, data.subscription.status, data.invoice.next_attempt]
  })
})

const subscriptionsOf = (connector: { readonly subscriptions?: NativeSubscriptions }) => connector.subscriptions!

describe("the sandbox runs subscriptions on its own clock (TestClock)", () => {
  it.effect("charges each period at its start and retries a declined renewal 1, 3 and 5 days after the first failure", () =>
    withLedger(Effect.gen(function*() {
      const { connector, ledger } = yield* sandbox()
      const job = sandboxSubscriptionsJob(ledger)
      const native = subscriptionsOf(connector)
      const { pspSubscriptionId } = yield* native.create(request())
      yield* job.run
      expect(yield* newReports).toEqual([[0, 1, "paid", "active", null]])

      const renewal = addIntervals(0, "month", 1)
      yield* TestClock.setTime(renewal - 1)
      yield* job.run
      expect(yield* newReports).toEqual([])

      yield* native.updatePaymentMethod({ pspSubscriptionId, paymentMethod: { type: "card", token: "tok_chargeDeclined" } })
      yield* TestClock.setTime(renewal + 4 * DAY)
      yield* job.run
      expect(yield* newReports).toEqual([
        [renewal, 1, "failed", "past_due", renewal + DAY],
        [renewal, 2, "failed", "past_due", renewal + 3 * DAY],
        [renewal, 3, "failed", "past_due", renewal + 5 * DAY]
      ])
      yield* TestClock.setTime(renewal + 60 * DAY)
      yield* job.run
      expect(yield* newReports).toEqual([[renewal, 4, "failed", "unpaid", null]])
      // Unpaid: the sandbox bills it no more.
      yield* TestClock.setTime(renewal + 365 * DAY)
      yield* job.run
      expect(yield* newReports).toEqual([])
    })))

  it.effect("one subscription per reference; a test-clock one moves only with advance; cancel at period end ends it then", () =>
    withLedger(Effect.gen(function*() {
      const { connector, ledger } = yield* sandbox()
      const job = sandboxSubscriptionsJob(ledger)
      const native = subscriptionsOf(connector)
      const first = yield* native.create(request({ testClock: true }))
      expect(yield* native.create(request({ testClock: true, amount: 1 }))).toEqual(first)

      yield* TestClock.setTime(addIntervals(0, "month", 3))
      yield* job.run
      expect(yield* newReports).toEqual([])

      const advanced = yield* native.advance({ pspSubscriptionId: first.pspSubscriptionId, toMillis: addIntervals(0, "month", 1) })
      expect(advanced.reports.map((report) => [report.invoice?.periodStartMillis, report.invoice?.outcome, report.invoice?.amount]))
        .toEqual([[0, "paid", 1999], [addIntervals(0, "month", 1), "paid", 1999]])
      expect(advanced.nextRunMillis).toBe(addIntervals(0, "month", 2))
      expect((yield* newReports).length).toBe(2)

      yield* native.cancel({ pspSubscriptionId: first.pspSubscriptionId, atPeriodEnd: true })
      const ended = yield* native.advance({ pspSubscriptionId: first.pspSubscriptionId, toMillis: addIntervals(0, "month", 6) })
      expect(ended.reports.map((report) => [report.status, report.invoice])).toEqual([["canceled", null]])
      expect(ended.nextRunMillis).toBe(null)
    })))
})
