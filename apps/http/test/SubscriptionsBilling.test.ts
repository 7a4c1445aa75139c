import { expect, layer } from "@effect/vitest"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { monthly, setup } from "./support/SubscriptionsApi.js"
import { raw, runJobs, serverLayer } from "./support/TestServer.js"

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "300 seconds" })(
    `subscriptions over HTTP on ${database.name}`,
    (it) => {
      it.effect("bills a monthly subscription for twelve periods in one advance, anchor day kept", () =>
        Effect.gen(function*() {
          const { advance, clock, created, get, invoicesOf } = yield* monthly("2027-01-31T10:00:00.000Z")
          expect(created.status).toBe(201)
          expect(created.json).toMatchObject({
            object: "subscription",
            status: "active",
            engine: "orchestrator",
            provider: "sandbox_a",
            current_period_start: "2027-01-31T10:00:00.000Z",
            current_period_end: "2027-02-28T10:00:00.000Z",
            cancel_at_period_end: false,
            test_clock: clock.id
          })
          expect(created.json.latest_invoice).toMatchObject({ status: "paid", amount_due: 1999, amount_paid: 1999 })
          expect(created.json.latest_invoice.payment).toMatchObject({ status: "succeeded", amount: 1999 })

          const advanced = yield* advance(clock.id, "2028-01-15T00:00:00.000Z")
          expect([advanced.status, advanced.json.status, advanced.json.frozen_time])
            .toEqual([200, "ready", "2028-01-15T00:00:00.000Z"])
          // The worker sees the clock's time too: nothing more is due by it.
          yield* runJobs("bill-subscriptions")

          const invoices = yield* invoicesOf(created.json.id)
          expect(invoices.map((invoice) => invoice.period_start)).toEqual([
            "2027-01-31",
            "2027-02-28",
            "2027-03-31",
            "2027-04-30",
            "2027-05-31",
            "2027-06-30",
            "2027-07-31",
            "2027-08-31",
            "2027-09-30",
            "2027-10-31",
            "2027-11-30",
            "2027-12-31"
          ].map((day) => `${day}T10:00:00.000Z`))
          expect(invoices.every((invoice) => invoice.status === "paid" && invoice.amount_paid === 1999 && invoice.payment.status === "succeeded")).toBe(true)
          expect(new Set(invoices.map((invoice) => invoice.payment.id)).size).toBe(12)
          // The payments are real: each made at its period's start and listed with the others.
          expect(invoices[5].payment.created_at).toBe("2027-06-30T10:00:00.000Z")
          expect((yield* get(`/v1/payments/${invoices[11].payment.id}`)).json.off_session).toBe(true)

          const after = (yield* get(`/v1/subscriptions/${created.json.id}`)).json
          expect([after.status, after.current_period_start, after.current_period_end])
            .toEqual(["active", "2027-12-31T10:00:00.000Z", "2028-01-31T10:00:00.000Z"])
        }))

      it.effect("a trial ends in the first paid period", () =>
        Effect.gen(function*() {
          const { advance, clock, created, eventsOf, invoicesOf } = yield* monthly("2027-03-01T00:00:00.000Z", {
            trialDays: 14
          })
          expect(created.json).toMatchObject({
            status: "trialing",
            trial_end: "2027-03-15T00:00:00.000Z",
            current_period_end: "2027-03-15T00:00:00.000Z",
            latest_invoice: null
          })
          yield* advance(clock.id, "2027-03-16T00:00:00.000Z")
          const invoices = yield* invoicesOf(created.json.id)
          expect(invoices.map((invoice) => [invoice.status, invoice.period_start, invoice.period_end])).toEqual([
            ["paid", "2027-03-15T00:00:00.000Z", "2027-04-15T00:00:00.000Z"]
          ])
          expect(yield* eventsOf(created.json.id)).toEqual([
            "subscription.created",
            "invoice.created",
            "invoice.paid",
            "subscription.updated"
          ])
        }))

      it.effect("a first charge needing 3D Secure waits incomplete, then turns active once completed", () =>
        Effect.gen(function*() {
          const { customerOn, get, newPlan, subscribe } = yield* setup
          const customer = yield* customerOn(null)
          const gold = yield* newPlan({ amount: 5000, currency: "EUR", interval: "year" })
          const created = yield* subscribe({
            customer: customer.id,
            plan: gold.id,
            payment_method: "tok_threeDSecureRequired",
            return_url: "https://shop.example/welcome"
          })
          expect([created.status, created.json.status]).toEqual([201, "incomplete"])
          const nextAction = created.json.latest_invoice.payment.next_action
          expect(nextAction.type).toBe("redirect")

          const completed = yield* raw(`${nextAction.url}/complete`, { method: "POST" })
          yield* raw(completed.headers.get("location")!)
          yield* runJobs("dispatch-events")
          const settled = (yield* get(`/v1/subscriptions/${created.json.id}`)).json
          expect([settled.status, settled.latest_invoice.status, settled.latest_invoice.payment.status])
            .toEqual(["active", "paid", "succeeded"])
        }))

      it.effect("canceled while its first charge waits for 3D Secure: the payment is canceled too, so completing it charges nothing", () =>
        Effect.gen(function*() {
          const { customerOn, get, newPlan, post, subscribe } = yield* setup
          const plan = yield* newPlan({ amount: 1999, currency: "EUR", interval: "month" })
          const created = yield* subscribe({
            customer: (yield* customerOn(null)).id,
            plan: plan.id,
            payment_method: "tok_threeDSecureRequired",
            return_url: "https://shop.example/welcome"
          })
          const nextAction = created.json.latest_invoice.payment.next_action
          expect((yield* post(`/v1/subscriptions/${created.json.id}/cancel`, {})).json.status).toBe("canceled")
          const after = (yield* get(`/v1/subscriptions/${created.json.id}`)).json
          expect([after.latest_invoice.status, after.latest_invoice.payment.status]).toEqual(["void", "canceled"])
          // The customer finishes the challenge anyway: nothing is captured, nothing is paid.
          const completed = yield* raw(`${nextAction.url}/complete`, { method: "POST" })
          const back = completed.headers.get("location")
          if (back !== null) yield* raw(back)
          yield* runJobs("dispatch-events")
          const settled = (yield* get(`/v1/subscriptions/${created.json.id}`)).json
          expect([settled.status, settled.latest_invoice.status, settled.latest_invoice.payment.status, settled.latest_invoice.payment.amount_captured])
            .toEqual(["canceled", "void", "canceled", 0])
        }))

      it.effect("a test clock stays where billing's dates can follow it: years past 9000 are refused, and the clock stays ready", () =>
        Effect.gen(function*() {
          const { advance, clock, get, post } = yield* setup
          const late = yield* post("/v1/test_helpers/test_clocks", { frozen_time: "9999-11-01T00:00:00.000Z" })
          expect([late.status, late.json.error.code, late.json.error.param]).toEqual([422, "clock_time_out_of_range", "frozen_time"])
          const near = yield* clock("8999-12-01T00:00:00.000Z")
          const beyond = yield* advance(near.id, "9001-01-02T00:00:00.000Z")
          expect([beyond.status, beyond.json.error.code]).toEqual([422, "clock_time_out_of_range"])
          expect((yield* get(`/v1/test_helpers/test_clocks/${near.id}`)).json)
            .toMatchObject({ frozen_time: "8999-12-01T00:00:00.000Z", status: "ready" })
        }))

      it.effect("an incomplete subscription expires after 23 hours; its invoice is voided", () =>
        Effect.gen(function*() {
          const { advance, clock, created, get } = yield* monthly("2027-05-01T00:00:00.000Z", {
            token: "tok_threeDSecureRequired",
            returnUrl: "https://shop.example/welcome"
          })
          expect(created.json.status).toBe("incomplete")
          yield* advance(clock.id, "2027-05-01T22:00:00.000Z")
          expect((yield* get(`/v1/subscriptions/${created.json.id}`)).json.status).toBe("incomplete")
          yield* advance(clock.id, "2027-05-02T00:00:00.000Z")
          const expired = (yield* get(`/v1/subscriptions/${created.json.id}`)).json
          expect([expired.status, expired.latest_invoice.status]).toEqual(["incomplete_expired", "void"])
        }))

      it.effect("a first charge declined outright answers 402 with the incomplete subscription", () =>
        Effect.gen(function*() {
          const { created } = yield* monthly("2027-05-01T00:00:00.000Z", { token: "tok_chargeDeclined" })
          expect([created.status, created.json.error.type, created.json.error.code])
            .toEqual([402, "payment_error", "card_declined"])
          expect(created.json.error.subscription).toMatchObject({ object: "subscription", status: "incomplete" })
          expect(created.json.error.subscription.latest_invoice.payment.status).toBe("failed")
        }))
    }
  )
}
