import { expect, layer } from "@effect/vitest"
import { Organizations } from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

const year = new Date().getUTCFullYear() + 3
const card = { type: "card", card: { number: "4242 4242 4242 4242", exp_month: 12, exp_year: year, cvc: "123" } }

for (const database of testDatabases()) {
  // The vault on an origin of its own: `localhost` on the server's port, the API on `127.0.0.1`.
  layer(serverLayer(database.layer, { vaultOrigin: (port) => `http://localhost:${port}` }), { excludeTestServices: true, timeout: "120 seconds" })(
    `the card form on its own origin on ${database.name}`,
    (it) => {
      const shop = Effect.gen(function*() {
        const account = yield* merchant()
        const publishable = (yield* (yield* Organizations).createKey(account.organization.id, false, "publishable")).secret
        return { ...account, publishable, vault: account.baseUrl.replace("127.0.0.1", "localhost") }
      })

      it.effect("serves the form there, framable only by the origin that declared itself", () =>
        Effect.gen(function*() {
          const { vault } = yield* shop
          const page = yield* raw(`${vault}/vault/card-form?origin=${encodeURIComponent("https://shop.example")}`)
          expect(page.status).toBe(200)
          const policy = page.headers.get("content-security-policy")!
          expect(policy).toContain("frame-ancestors https://shop.example")
          expect(policy).toContain("connect-src 'self'")
          expect(policy).not.toContain("unsafe-inline")
          expect(page.headers.get("referrer-policy")).toBe("no-referrer")
          expect(page.headers.get("cache-control")).toBe("no-store")
          expect(page.text).toContain(`data-parent-origin="https://shop.example"`)
          for (const origin of ["", "https://shop.example/cart", "javascript:alert(1)", "https://shop.example; script-src *", "*"]) {
            const refused = yield* raw(`${vault}/vault/card-form?origin=${encodeURIComponent(origin)}`)
            expect([origin, refused.status]).toEqual([origin, 400])
          }
          const script = yield* raw(`${vault}/vault/v1/vault.js`)
          expect([script.status, script.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"])
          expect(script.text).toContain("OrchestratorVault")
        }))

      it.effect("the vault's host serves the card form and nothing else; the API's host never serves the card form", () =>
        Effect.gen(function*() {
          const { baseUrl, publishable, secret, vault } = yield* shop
          const tokenize = (base: string) =>
            raw(`${base}/v1/card_form/payment_methods`, { method: "POST", headers: json(publishable), body: JSON.stringify(card) })
          const made = yield* tokenize(vault)
          expect(made.status).toBe(201)
          expect((yield* tokenize(baseUrl)).status).toBe(404)
          expect((yield* raw(`${baseUrl}/vault/card-form?origin=https%3A%2F%2Fshop.example`)).status).toBe(404)
          expect((yield* raw(`${baseUrl}/vault/v1/vault.js`)).status).toBe(404)
          // No page or endpoint of the API shares the vault's origin.
          for (const path of ["/v1/payments", `/v1/payment_methods/${made.json.id}`, "/docs", "/dashboard", "/v1/checkout/dropin.js", "/healthz"]) {
            const answer = yield* raw(`${vault}${path}`, { headers: json(secret) })
            expect([path, answer.status]).toEqual([path, 404])
          }
          expect((yield* raw(`${baseUrl}/v1/payment_methods/${made.json.id}`, { headers: json(secret) })).status).toBe(200)
        }))
    }
  )
}
