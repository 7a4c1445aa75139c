import { expect, layer } from "@effect/vitest"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, runJobs, serverLayer } from "./support/TestServer.js"

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `3D Secure without a return_url on ${database.name}`,
    (it) => {
      const setup = Effect.gen(function*() {
        const account = yield* merchant()
        const post = (path: string, body: object) =>
          raw(`${account.baseUrl}${path}`, {
            method: "POST",
            headers: json(account.secret, newKey()),
            body: JSON.stringify(body)
          })
        const get = (path: string) => raw(`${account.baseUrl}${path}`, { headers: json(account.secret) })
        const customer = (yield* post("/v1/customers", { email: "jenny@example.com" })).json
        const plan = (yield* post("/v1/plans", { amount: 1999, currency: "EUR", interval: "month" })).json
        // Exactly the seed's CreateSubscription: no return_url.
        const subscribe = (token: string) => post("/v1/subscriptions", { customer: customer.id, plan: plan.id, payment_method: token })
        return { ...account, post, get, subscribe }
      })

      it.effect("a first charge needing SCA answers 201 incomplete with the action; completing it ends on the closing page and the subscription turns active", () =>
        Effect.gen(function*() {
          const { get, subscribe } = yield* setup
          const created = yield* subscribe("tok_threeDSecureRequired")
          expect([created.status, created.json.status, created.json.latest_invoice.status]).toEqual([201, "incomplete", "open"])
          const payment = created.json.latest_invoice.payment
          expect([payment.status, payment.return_url, payment.next_action.type]).toEqual(["requires_action", null, "redirect"])

          // The customer completes the challenge; the PSP sends them to our return route, which
          // shows the page that says they may close the window (there is no merchant page to go to).
          const completed = yield* raw(`${payment.next_action.url}/complete`, { method: "POST" })
          const back = completed.headers.get("location")!
          expect(new URL(back).pathname).toBe(`/v1/payments/${payment.id}/return`)
          const page = yield* raw(back)
          expect([page.status, page.headers.get("location")]).toEqual([200, null])
          expect(page.headers.get("content-type")).toContain("text/html")
          expect(page.text).toContain("You can close this window.")
          expect(page.text).not.toContain(payment.id)

          yield* runJobs("dispatch-events")
          const settled = (yield* get(`/v1/subscriptions/${created.json.id}`)).json
          expect([settled.status, settled.latest_invoice.status, settled.latest_invoice.payment.status])
            .toEqual(["active", "paid", "succeeded"])
        }))

      it.effect("a challenge failed by the customer leaves the subscription incomplete, its invoice open", () =>
        Effect.gen(function*() {
          const { get, subscribe } = yield* setup
          const created = yield* subscribe("tok_threeDSecureRequired")
          const payment = created.json.latest_invoice.payment
          const failed = yield* raw(`${payment.next_action.url}/fail`, { method: "POST" })
          const page = yield* raw(failed.headers.get("location")!)
          expect([page.status, page.text.includes("You can close this window.")]).toEqual([200, true])
          yield* runJobs("dispatch-events")
          const after = (yield* get(`/v1/subscriptions/${created.json.id}`)).json
          expect([after.status, after.latest_invoice.status, after.latest_invoice.payment.status])
            .toEqual(["incomplete", "open", "failed"])
        }))

      it.effect("a plain payment needing 3D Secure without a return_url is still refused: 422, canceled", () =>
        Effect.gen(function*() {
          const { post } = yield* setup
          const refused = yield* post("/v1/payments", {
            amount: 1000,
            currency: "EUR",
            payment_method: { type: "card", token: "tok_threeDSecureRequired" }
          })
          expect([refused.status, refused.json.error.code, refused.json.error.payment.status])
            .toEqual([422, "return_url_required", "canceled"])
        }))
    }
  )
}
