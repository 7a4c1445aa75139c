import { expect, layer } from "@effect/vitest"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `a subscription's payment_method on ${database.name}`,
    (it) => {
      const setup = Effect.gen(function*() {
        const account = yield* merchant()
        const post = (path: string, body: object) =>
          raw(`${account.baseUrl}${path}`, { method: "POST", headers: json(account.secret, newKey()), body: JSON.stringify(body) })
        const customer = (yield* post("/v1/customers", { email: "jenny@example.com" })).json
        const plan = (yield* post("/v1/plans", { amount: 1999, currency: "EUR", interval: "month" })).json
        return { post, customer, plan }
      })

      it.scoped("takes the seed's token string and the payments' card object alike, and charges the first invoice", () =>
        Effect.gen(function*() {
          const { customer, plan, post } = yield* setup
          for (const paymentMethod of ["tok_visa", { type: "card", token: "tok_visa" }]) {
            const created = yield* post("/v1/subscriptions", { customer: customer.id, plan: plan.id, payment_method: paymentMethod })
            expect(created.status).toBe(201)
            expect(created.json).toMatchObject({ status: "active", payment_method: "tok_visa" })
            expect(created.json.latest_invoice).toMatchObject({ status: "paid", amount_paid: 1999 })
          }
        }))

      it.scoped("an update takes the card object too", () =>
        Effect.gen(function*() {
          const { customer, plan, post } = yield* setup
          const created = yield* post("/v1/subscriptions", { customer: customer.id, plan: plan.id, payment_method: "tok_visa" })
          const updated = yield* post(`/v1/subscriptions/${created.json.id}`, {
            payment_method: { type: "card", token: "tok_mastercard" }
          })
          expect(updated.status).toBe(200)
          expect(updated.json.payment_method).toBe("tok_mastercard")
        }))

      it.scoped("refuses an object that is not a card token with a 400 naming payment_method", () =>
        Effect.gen(function*() {
          const { customer, plan, post } = yield* setup
          for (const paymentMethod of [{ type: "sepa", token: "tok_visa" }, { type: "card" }, { type: "card", token: "tok_visa", extra: 1 }]) {
            const refused = yield* post("/v1/subscriptions", { customer: customer.id, plan: plan.id, payment_method: paymentMethod })
            expect(refused.status).toBe(400)
            expect(refused.json.error.param).toMatch(/^payment_method/)
          }
        }))
    }
  )
}
