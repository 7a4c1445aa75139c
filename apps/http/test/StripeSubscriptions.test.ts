import { expect, layer } from "@effect/vitest"
import { fakeStripe, testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, runJobs, serverLayer } from "./support/TestServer.js"

const STRIPE_KEY = "sk_test_TOPSECRETbilling1"
const STRIPE_WEBHOOK_SECRET = "whsec_TOPSECRETbilling2"

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `native subscriptions on Stripe Billing through the HTTP API, against a wire-level fake, on ${database.name}`,
    (it) => {
      const setup = Effect.gen(function*() {
        const stripe = yield* fakeStripe
        const { baseUrl, secret } = yield* merchant()
        const post = (path: string, body: object) => raw(`${baseUrl}${path}`, { method: "POST", headers: json(secret, newKey()), body: JSON.stringify(body) })
        const get = (path: string) => raw(`${baseUrl}${path}`, { headers: json(secret) })
        const connection = (yield* post("/v1/provider-connections", {
          name: "stripe_eu",
          type: "stripe",
          credentials: { secret_key: STRIPE_KEY },
          webhook_secret: STRIPE_WEBHOOK_SECRET,
          base_url: stripe.url
        })).json
        const plan = (yield* post("/v1/plans", { amount: 1999, currency: "EUR", interval: "month" })).json
        /**
         * Stripe's webhooks so far, sent one at a time and each applied by the worker before the next
         * (Stripe does not promise an order; the sandbox's suite covers news out of order).
         */
        const stripeTells = Effect.gen(function*() {
          for (;;) {
            const statuses = yield* Effect.promise(() => stripe.sendBillingEvents(`${baseUrl}/v1/provider-webhooks/${connection.id}`, STRIPE_WEBHOOK_SECRET, 1))
            if (statuses.length === 0) return
            expect(statuses).toEqual([200])
            yield* runJobs("apply-provider-events")
          }
        })
        const invoicesOf = (id: string) =>
          Effect.map(
            get(`/v1/invoices?subscription=${id}&limit=100`),
            (response) => [...response.json.data].sort((a: any, b: any) => a.period_start.localeCompare(b.period_start)) as Array<any>
          )
        return { stripe, post, get, plan, stripeTells, invoicesOf }
      })

      it.scoped("on a test clock: Stripe charges, renews and retries; the subscription here follows its webhooks to the end", () =>
        Effect.gen(function*() {
          const api = yield* setup
          const clock = (yield* api.post("/v1/test_helpers/test_clocks", { frozen_time: "2027-01-31T10:00:00.000Z" })).json
          const customer = (yield* api.post("/v1/customers", { email: "jenny@example.com", name: "Jenny Rosen", test_clock: clock.id })).json
          const created = yield* api.post("/v1/subscriptions", {
            customer: customer.id,
            plan: api.plan.id,
            payment_method: "pm_card_visa",
            engine: "native",
            provider: "stripe_eu"
          })
          expect(created.status).toBe(201)
          expect(created.json).toMatchObject({ engine: "native", provider: "stripe_eu", status: "incomplete", latest_invoice: null })
          expect(created.json.provider_subscription_id).toMatch(/^sub_/)
          const id: string = created.json.id
          const atStripe = api.stripe.billing.subscriptions.get(created.json.provider_subscription_id)!
          expect(atStripe).toMatchObject({ status: "active", metadata: { reference: id } })
          expect(api.stripe.billing.customers.get(atStripe.customer)).toMatchObject({
            test_clock: expect.stringMatching(/^clock_/),
            email: "jenny@example.com"
          })

          // Nothing here moves until Stripe says so.
          yield* api.stripeTells
          const active = (yield* api.get(`/v1/subscriptions/${id}`)).json
          expect(active).toMatchObject({ status: "active", current_period_start: "2027-01-31T10:00:00.000Z", current_period_end: "2027-02-28T10:00:00.000Z" })
          expect(active.latest_invoice).toMatchObject({ status: "paid", amount_paid: 1999, billing_reason: "subscription_create", attempt_count: 1 })

          // Our clock moves three and a half months: Stripe's follows it renewal by renewal.
          const advanced = yield* api.post(`/v1/test_helpers/test_clocks/${clock.id}/advance`, { frozen_time: "2027-05-15T00:00:00.000Z" })
          expect([advanced.status, advanced.json.status]).toEqual([200, "ready"])
          yield* api.stripeTells
          expect((yield* api.invoicesOf(id)).map((invoice) => [invoice.period_start, invoice.period_end, invoice.status, invoice.billing_reason]))
            .toEqual([
              ["2027-01-31", "2027-02-28", "subscription_create"],
              ["2027-02-28", "2027-03-31", "subscription_cycle"],
              ["2027-03-31", "2027-04-30", "subscription_cycle"],
              ["2027-04-30", "2027-05-31", "subscription_cycle"]
            ].map(([start, end, reason]) => [`${start}T10:00:00.000Z`, `${end}T10:00:00.000Z`, "paid", reason]))

          // A card that declines: Stripe's renewal fails, its retries fail, and it ends the subscription.
          const switched = yield* api.post(`/v1/subscriptions/${id}`, { payment_method: "pm_card_chargeDeclined" })
          expect(switched.status).toBe(200)
          yield* api.post(`/v1/test_helpers/test_clocks/${clock.id}/advance`, { frozen_time: "2027-06-01T00:00:00.000Z" })
          yield* api.stripeTells
          const pastDue = (yield* api.get(`/v1/subscriptions/${id}`)).json
          expect(pastDue.status).toBe("past_due")
          expect(pastDue.latest_invoice).toMatchObject({ status: "open", attempt_count: 1, next_payment_attempt: "2027-06-03T10:00:00.000Z" })
          yield* api.post(`/v1/test_helpers/test_clocks/${clock.id}/advance`, { frozen_time: "2027-06-20T00:00:00.000Z" })
          yield* api.stripeTells
          const ended = (yield* api.get(`/v1/subscriptions/${id}`)).json
          expect(ended.status).toBe("canceled")
          expect(ended.latest_invoice).toMatchObject({ status: "uncollectible", attempt_count: 4, period_start: "2027-05-31T10:00:00.000Z" })
          // Charged once per attempt, at Stripe only: four paid periods, four declined attempts.
          expect(api.stripe.billing.charges.map((charge) => charge.paid)).toEqual([true, true, true, true, false, false, false, false])
          const events = (yield* api.get("/v1/events?limit=100")).json.data.map((event: any) => event.type)
          expect(events).toEqual(
            expect.arrayContaining(["subscription.past_due", "subscription.unpaid", "subscription.canceled", "invoice.marked_uncollectible"])
          )
        }))

      it.scoped("cancel now and at period end go to Stripe first; a declined first charge expires the subscription", () =>
        Effect.gen(function*() {
          const api = yield* setup
          const customer = (yield* api.post("/v1/customers", { email: "sam@example.com" })).json
          const start = (token: string) =>
            Effect.map(
              api.post("/v1/subscriptions", {
                customer: customer.id,
                plan: api.plan.id,
                payment_method: token,
                engine: "native",
                provider: "stripe_eu"
              }),
              (response) => response.json
            )

          const now = yield* start("pm_card_visa")
          const atEnd = yield* start("pm_card_mastercard")
          yield* api.stripeTells
          const canceled = yield* api.post(`/v1/subscriptions/${now.id}/cancel`, {})
          expect([canceled.status, canceled.json.status]).toEqual([200, "canceled"])
          expect(api.stripe.billing.subscriptions.get(now.provider_subscription_id)?.status).toBe("canceled")
          const flagged = yield* api.post(`/v1/subscriptions/${atEnd.id}/cancel`, { at_period_end: true })
          expect([flagged.status, flagged.json.status, flagged.json.cancel_at_period_end]).toEqual([200, "active", true])
          expect(api.stripe.billing.subscriptions.get(atEnd.provider_subscription_id)).toMatchObject({ status: "active", cancel_at_period_end: true })
          // Stripe's own news of both (the deletion, the update) changes nothing more.
          yield* api.stripeTells
          expect((yield* api.get(`/v1/subscriptions/${now.id}`)).json.status).toBe("canceled")
          expect((yield* api.get(`/v1/subscriptions/${atEnd.id}`)).json).toMatchObject({ status: "active", cancel_at_period_end: true })

          const declined = yield* start("pm_card_chargeDeclinedInsufficientFunds")
          expect(declined.status).toBe("incomplete")
          yield* api.stripeTells
          const expired = (yield* api.get(`/v1/subscriptions/${declined.id}`)).json
          expect(expired.status).toBe("incomplete_expired")
          expect(expired.latest_invoice).toMatchObject({ status: "void", attempt_count: 1, billing_reason: "subscription_create" })
        }))
    }
  )
}
