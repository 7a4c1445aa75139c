import { expect, layer } from "@effect/vitest"
import { fakeAdyen, fakeStripe, testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json } from "./support/Fixtures.js"
import { setup } from "./support/SubscriptionsApi.js"
import { raw, serverLayer } from "./support/TestServer.js"

/** Declined for insufficient funds by Stripe's test numbers; an ordinary approved card among Adyen's. */
const INSUFFICIENT_FUNDS_AT_STRIPE = "4000000000009995"
const year = new Date().getUTCFullYear() + 2

for (const database of testDatabases()) {
  layer(serverLayer(database.layer, { rawCardData: () => true }), { excludeTestServices: true, timeout: "240 seconds" })(
    `dunning with a vaulted card on ${database.name}`,
    (it) => {
      it.scoped("a renewal Stripe refuses is retried on Adyen, the next PSP routing allows, with the same card", () =>
        Effect.gen(function*() {
          const stripe = yield* fakeStripe
          const adyen = yield* fakeAdyen
          const api = yield* setup
          const { advance, get, post } = api
          const patch = (path: string, body: object) => raw(`${api.baseUrl}${path}`, { method: "PATCH", headers: json(api.secret), body: JSON.stringify(body) })
          expect(
            (yield* post("/v1/provider-connections", {
              name: "stripe_eu",
              type: "stripe",
              credentials: { secret_key: "sk_test_dunning" },
              base_url: stripe.url
            })).status
          ).toBe(201)
          expect(
            (yield* post("/v1/provider-connections", {
              name: "adyen_eu",
              type: "adyen",
              credentials: { api_key: "AQE_dunning", merchant_account: adyen.merchantAccount },
              base_url: adyen.url
            })).status
          ).toBe(201)
          for (const [index, provider] of ["stripe_eu", "adyen_eu"].entries()) {
            expect((yield* post("/v1/routing-rules", { priority: index + 1, conditions: {}, action: { provider } })).status).toBe(201)
          }
          expect((yield* patch("/v1/organization", { default_provider: "adyen_eu", payments_routing: "rules" })).status).toBe(200)

          const card = yield* post("/v1/payment_methods", {
            type: "card",
            card: { number: INSUFFICIENT_FUNDS_AT_STRIPE, exp_month: 7, exp_year: year, cvc: "123" }
          })
          expect(card.status).toBe(201)
          // A trial: the first charge is the renewal at its end, off-session, on the subscription's PSP.
          const clock = yield* api.clock("2027-01-10T00:00:00.000Z")
          const customer = yield* api.customerOn(clock.id)
          const plan = yield* api.newPlan({ amount: 1999, currency: "EUR", interval: "month", trial_days: 7 })
          const created = yield* api.subscribe({ customer: customer.id, plan: plan.id, payment_method: card.json.id })
          expect([created.status, created.json.status]).toEqual([201, "trialing"])
          const id = created.json.id

          yield* advance(clock.id, "2027-01-17T01:00:00.000Z")
          const pastDue = (yield* get(`/v1/subscriptions/${id}`)).json
          expect([pastDue.status, pastDue.latest_invoice.payment.provider, pastDue.latest_invoice.payment.failure.code])
            .toEqual(["past_due", "stripe_eu", "insufficient_funds"])

          yield* advance(clock.id, "2027-01-18T01:00:00.000Z")
          const recovered = (yield* get(`/v1/subscriptions/${id}`)).json
          expect([recovered.status, recovered.latest_invoice.status, recovered.latest_invoice.attempt_count])
            .toEqual(["active", "paid", 2])
          expect(recovered.latest_invoice.payment).toMatchObject({
            provider: "adyen_eu",
            status: "succeeded",
            payment_method: { token: card.json.id }
          })
          // Adyen got the card, as a stored credential charged without the customer (no CVC after the first authorization).
          const sent = adyen.exchanges.filter((exchange) => exchange.url === "/v71/payments")
          expect(sent).toHaveLength(1)
          const body = JSON.parse(sent[0]!.body)
          expect(body.paymentMethod).toMatchObject({ type: "scheme", number: INSUFFICIENT_FUNDS_AT_STRIPE })
          expect(body.paymentMethod).not.toHaveProperty("cvc")
        }))
    }
  )
}
