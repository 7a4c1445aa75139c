import { expect, layer } from "@effect/vitest"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { checkoutSetup } from "./support/CheckoutFixtures.js"
import { json } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

/** Organizations the operator let send raw card numbers, as `ORCHESTRATOR_VAULT_RAW_CARD_ORGANIZATIONS` would. */
const enabled = new Set<string>()
const year = new Date().getUTCFullYear() + 3

for (const database of testDatabases()) {
  layer(serverLayer(database.layer, { rawCardData: (organization) => enabled.has(organization) }), {
    excludeTestServices: true,
    timeout: "120 seconds"
  })(`payment methods (the card vault) over HTTP on ${database.name}`, (it) => {
    const account = (rawCards = true) =>
      Effect.gen(function*() {
        const found = yield* merchant()
        if (rawCards) enabled.add(found.organization.id)
        const call = (method: string, path: string, body?: object) =>
          raw(`${found.baseUrl}${path}`, { method, headers: json(found.secret), ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
        return { ...found, call }
      })
    const card = (extra: object = {}) => ({ type: "card", card: { number: "4242 4242 4242 4242", exp_month: 12, exp_year: year, cvc: "123", ...extra } })

    it.effect("vaults a card, shows its facts only, and destroys it on delete", () =>
      Effect.gen(function*() {
        const { call } = yield* account()
        const created = yield* call("POST", "/v1/payment_methods", card())
        expect(created.status).toBe(201)
        expect(created.json).toMatchObject({
          object: "payment_method",
          type: "card",
          livemode: false,
          card: { brand: "visa", last4: "4242", exp_month: 12, exp_year: year, country: "US", funding: "credit" }
        })
        expect(created.json.id).toMatch(/^pm_[0-9A-Z]{30}$/)
        expect(created.text).not.toMatch(/4242424242424242|"123"/)
        expect((yield* call("GET", `/v1/payment_methods/${created.json.id}`)).json).toEqual(created.json)

        const deleted = yield* call("DELETE", `/v1/payment_methods/${created.json.id}`)
        expect([deleted.status, deleted.json]).toEqual([200, { object: "payment_method", id: created.json.id, deleted: true }])
        const gone = yield* call("GET", `/v1/payment_methods/${created.json.id}`)
        expect([gone.status, gone.json.error.code]).toEqual([404, "resource_missing"])
        expect((yield* call("DELETE", `/v1/payment_methods/${created.json.id}`)).status).toBe(404)
      }))

    it.effect("refuses a bad number, expiry or code with a clear 400, and stores nothing", () =>
      Effect.gen(function*() {
        const { call } = yield* account()
        const refused = (extra: object) =>
          Effect.map(call("POST", "/v1/payment_methods", card(extra)), (answer) => [answer.status, answer.json.error.code, answer.json.error.param])
        expect(yield* refused({ number: "4242424242424241" })).toEqual([400, "invalid_number", "card.number"])
        expect(yield* refused({ number: "42424242" })).toEqual([400, "invalid_number", "card.number"])
        expect(yield* refused({ exp_month: 0 })).toEqual([400, "invalid_expiry_month", "card.exp_month"])
        expect(yield* refused({ exp_year: 2001 })).toEqual([400, "expired_card", "card.exp_year"])
        expect(yield* refused({ cvc: "1" })).toEqual([400, "invalid_cvc", "card.cvc"])
        const unknownField = yield* call("POST", "/v1/payment_methods", { type: "card", card: { ...card().card, pin: "1234" } })
        expect(unknownField.status).toBe(400)
        expect(unknownField.text).not.toContain("4242424242424242")
      }))

    it.effect("refuses raw card data for an organization the operator has not enabled", () =>
      Effect.gen(function*() {
        const { call } = yield* account(false)
        const refused = yield* call("POST", "/v1/payment_methods", card())
        expect([refused.status, refused.json.error.code]).toEqual([422, "raw_card_data_disabled"])
      }))

    it.effect("keeps each organization's and mode's cards to themselves", () =>
      Effect.gen(function*() {
        const mine = yield* account()
        const other = yield* account()
        const created = yield* mine.call("POST", "/v1/payment_methods", card())
        expect((yield* other.call("GET", `/v1/payment_methods/${created.json.id}`)).status).toBe(404)
        expect((yield* other.call("DELETE", `/v1/payment_methods/${created.json.id}`)).status).toBe(404)
        const again = yield* other.call("POST", "/v1/payment_methods", card())
        expect(again.json.card.fingerprint).not.toBe(created.json.card.fingerprint)
        const twice = yield* mine.call("POST", "/v1/payment_methods", card())
        expect(twice.json.card.fingerprint).toBe(created.json.card.fingerprint)
      }))

    it.effect("a checkout session refuses a vaulted card the shopper names: rejected like a decline, nothing charged", () =>
      Effect.gen(function*() {
        const { confirm, organization, server } = yield* checkoutSetup()
        enabled.add(organization.id)
        const vaulted = yield* server("/v1/payment_methods", { method: "POST", body: card() })
        expect(vaulted.status).toBe(201)
        const confirmed = yield* confirm(vaulted.json.id)
        expect(confirmed.json.status).not.toBe("complete")
        expect((yield* server("/v1/payments")).json.data).toEqual([])
      }))
  })
}
