import { expect, layer } from "@effect/vitest"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json } from "./support/Fixtures.js"
import { monthly, setup } from "./support/SubscriptionsApi.js"
import { raw, serverLayer } from "./support/TestServer.js"

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "300 seconds" })(
    `subscriptions over HTTP on ${database.name}`,
    (it) => {
      it.effect("cancels now (then refuses any change with 409) and at the end of the period", () =>
        Effect.gen(function*() {
          const api = yield* monthly("2027-01-10T00:00:00.000Z")
          const now = yield* api.post(`/v1/subscriptions/${api.created.json.id}/cancel`, {})
          expect([now.status, now.json.status, now.json.canceled_at]).toEqual([200, "canceled", "2027-01-10T00:00:00.000Z"])
          const again = yield* api.post(`/v1/subscriptions/${api.created.json.id}/cancel`, {})
          expect([again.status, again.json.error.code]).toEqual([409, "subscription_final"])
          const change = yield* api.post(`/v1/subscriptions/${api.created.json.id}`, { metadata: { a: "b" } })
          expect(change.status).toBe(409)
          expect((yield* api.eventsOf(api.created.json.id)).at(-1)).toBe("subscription.canceled")

          const later = yield* api.subscribe({ customer: api.customer.id, plan: api.plan.id, payment_method: "tok_visa" })
          const scheduled = yield* api.post(`/v1/subscriptions/${later.json.id}/cancel`, { at_period_end: true })
          expect([scheduled.json.status, scheduled.json.cancel_at_period_end]).toEqual(["active", true])
          yield* api.advance(api.clock.id, "2027-02-09T00:00:00.000Z")
          expect((yield* api.get(`/v1/subscriptions/${later.json.id}`)).json.status).toBe("active")
          yield* api.advance(api.clock.id, "2027-02-11T00:00:00.000Z")
          const ended = (yield* api.get(`/v1/subscriptions/${later.json.id}`)).json
          expect([ended.status, ended.canceled_at]).toEqual(["canceled", "2027-02-10T00:00:00.000Z"])
          expect((yield* api.invoicesOf(later.json.id)).length).toBe(1)
        }))

      it.effect("a plan change shows pending_update and applies from the next period only", () =>
        Effect.gen(function*() {
          const api = yield* monthly("2027-01-10T00:00:00.000Z", { amount: 1000 })
          const premium = yield* api.newPlan({ amount: 2500, currency: "EUR", interval: "month" })
          const changed = yield* api.post(`/v1/subscriptions/${api.created.json.id}`, { plan: premium.id })
          expect(changed.json).toMatchObject({
            status: "active",
            plan_id: api.plan.id,
            pending_update: { plan_id: premium.id, effective_at: "2027-02-10T00:00:00.000Z" }
          })
          yield* api.advance(api.clock.id, "2027-03-11T00:00:00.000Z")
          const invoices = yield* api.invoicesOf(api.created.json.id)
          expect(invoices.map((invoice) => [invoice.period_start, invoice.amount_due, invoice.plan_id])).toEqual([
            ["2027-01-10T00:00:00.000Z", 1000, api.plan.id],
            ["2027-02-10T00:00:00.000Z", 2500, premium.id],
            ["2027-03-10T00:00:00.000Z", 2500, premium.id]
          ])
          const after = (yield* api.get(`/v1/subscriptions/${api.created.json.id}`)).json
          expect([after.plan_id, after.pending_update]).toEqual([premium.id, null])

          const euro = yield* api.newPlan({ amount: 2500, currency: "USD", interval: "month" })
          const mismatch = yield* api.post(`/v1/subscriptions/${api.created.json.id}`, { plan: euro.id })
          expect([mismatch.status, mismatch.json.error.code]).toEqual([422, "currency_mismatch"])
        }))

      it.effect("answers 4xx for what cannot be done: unknown customer, a clock moved back", () =>
        Effect.gen(function*() {
          const api = yield* setup
          const clock = yield* api.clock("2027-01-01T00:00:00.000Z")
          const customer = yield* api.customerOn(clock.id)
          const plan = yield* api.newPlan({ amount: 100, currency: "EUR", interval: "week", interval_count: 2 })
          expect(plan).toMatchObject({ object: "plan", interval: "week", interval_count: 2, trial_days: null })
          const noReturn = yield* api.subscribe({ customer: customer.id, plan: plan.id, payment_method: "tok_threeDSecureRequired" })
          // The seed's CreateSubscription has no return_url: the challenge waits for the customer.
          expect([noReturn.status, noReturn.json.status]).toEqual([201, "incomplete"])
          expect(noReturn.json.latest_invoice.payment.next_action.type).toBe("redirect")
          expect((yield* api.get(`/v1/customers/${customer.id}`)).json).toMatchObject({
            object: "customer",
            email: "jenny@example.com",
            name: "Jenny Rosen",
            test_clock: clock.id
          })
          expect((yield* api.get("/v1/customers?email=jenny@example.com")).json.data.map((each: { id: string }) => each.id))
            .toEqual([customer.id])
          expect((yield* api.get(`/v1/plans/${plan.id}`)).json).toEqual(plan)
          const unknown = yield* api.subscribe({ customer: "cus_nope", plan: plan.id, payment_method: "tok_visa" })
          expect([unknown.status, unknown.json.error.param]).toEqual([422, "customer"])
          const noKey = yield* api.post("/v1/subscriptions", { customer: customer.id, plan: plan.id, payment_method: "tok_visa" }, null)
          expect(noKey.status).toBe(400)
          const back = yield* api.advance(clock.id, "2026-12-31T00:00:00.000Z")
          expect([back.status, back.json.error.code]).toEqual([422, "clock_time_not_forward"])
          const badPlan = yield* api.post("/v1/plans", { amount: 100, currency: "EUR", interval: "fortnight" })
          expect(badPlan.status).toBe(400)
          expect((yield* api.get(`/v1/test_helpers/test_clocks/${clock.id}`)).json).toMatchObject({
            object: "test_helpers.test_clock",
            frozen_time: "2027-01-01T00:00:00.000Z",
            status: "ready"
          })
          expect((yield* api.get("/v1/test_helpers/test_clocks")).json.data.map((each: { id: string }) => each.id)).toEqual([clock.id])
          const tooFar = yield* api.advance(clock.id, "2029-06-01T00:00:00.000Z")
          expect([tooFar.status, tooFar.json.error.code]).toEqual([422, "clock_advance_too_far"])
          const deleted = yield* raw(`${api.baseUrl}/v1/test_helpers/test_clocks/${clock.id}`, {
            method: "DELETE",
            headers: json(api.secret)
          })
          expect([deleted.status, (yield* api.get(`/v1/test_helpers/test_clocks/${clock.id}`)).status]).toEqual([200, 404])
          expect((yield* api.get("/v1/subscriptions/sub_missing")).status).toBe(404)
          expect((yield* api.get("/v1/invoices/in_missing")).status).toBe(404)
        }))
    }
  )
}
