import { expect, layer } from "@effect/vitest"
import { Organizations } from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { checkoutSetup } from "./support/CheckoutFixtures.js"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw } from "./support/TestServer.js"
import { serverLayer } from "./support/TestServer.js"

const year = new Date().getUTCFullYear() + 3
const card = (extra: object = {}) => ({ type: "card", card: { number: "4242 4242 4242 4242", exp_month: 12, exp_year: year, cvc: "123", ...extra } })
const FORM = "/v1/card_form/payment_methods"

for (const database of testDatabases()) {
  // No organization may send raw card numbers: the card form needs no such permission.
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `publishable keys on ${database.name}`,
    (it) => {
      const shop = Effect.gen(function*() {
        const account = yield* merchant()
        const publishable = (yield* (yield* Organizations).createKey(account.organization.id, false, "publishable")).secret
        const call = (method: string, path: string, key: string, body?: object) =>
          raw(`${account.baseUrl}${path}`, {
            method,
            headers: json(key, method === "POST" ? newKey() : undefined),
            ...(body === undefined ? {} : { body: JSON.stringify(body) })
          })
        return { ...account, publishable, call }
      })

      it.effect("tokenizes a card from the card form, and the secret key pays with it", () =>
        Effect.gen(function*() {
          const { call, publishable, secret } = yield* shop
          expect(publishable).toMatch(/^pk_test_[0-9A-Za-z]{40}$/)
          const made = yield* call("POST", FORM, publishable, card({ holder_name: "Ada Lovelace" }))
          expect(made.status).toBe(201)
          expect(made.json).toMatchObject({ object: "payment_method", livemode: false, card: { brand: "visa", last4: "4242", exp_month: 12 } })
          expect(made.text).not.toMatch(/4242424242424242|"123"|Lovelace/)
          // The raw API stays gated for this organization.
          expect((yield* call("POST", "/v1/payment_methods", secret, card())).json.error.code).toBe("raw_card_data_disabled")
          expect((yield* call("GET", `/v1/payment_methods/${made.json.id}`, secret)).json).toEqual(made.json)
          const paid = yield* call("POST", "/v1/payments", secret, { amount: 1200, currency: "EUR", payment_method: { type: "card", token: made.json.id } })
          expect([paid.status, paid.json.status]).toEqual([201, "succeeded"])
        }))

      it.effect("checks the card as the raw API does", () =>
        Effect.gen(function*() {
          const { call, publishable } = yield* shop
          const refused = (extra: object) =>
            Effect.map(call("POST", FORM, publishable, card(extra)), (answer) => [answer.status, answer.json.error.code, answer.json.error.param])
          expect(yield* refused({ number: "4242424242424241" })).toEqual([400, "invalid_number", "card.number"])
          expect(yield* refused({ exp_month: 13 })).toEqual([400, "invalid_expiry_month", "card.exp_month"])
          expect(yield* refused({ exp_year: 2001 })).toEqual([400, "expired_card", "card.exp_year"])
          expect(yield* refused({ cvc: "12" })).toEqual([400, "invalid_cvc", "card.cvc"])
        }))

      it.effect("a publishable key is refused by every other endpoint with 401, and told why", () =>
        Effect.gen(function*() {
          const { call, publishable, secret } = yield* shop
          const made = (yield* call("POST", FORM, publishable, card())).json
          const pay = { amount: 1200, currency: "EUR", payment_method: { type: "card", token: made.id } }
          const attempts: ReadonlyArray<[string, string, object?]> = [
            ["GET", `/v1/payment_methods/${made.id}`],
            ["DELETE", `/v1/payment_methods/${made.id}`],
            ["POST", "/v1/payment_methods", card()],
            ["POST", "/v1/payments", pay],
            ["GET", "/v1/payments"],
            ["GET", "/v1/organization"],
            ["GET", "/v1/events"],
            ["GET", "/v1/provider-connections"],
            ["POST", "/v1/checkout/sessions", { amount: 100, currency: "EUR", success_url: "https://shop.test/ok", cancel_url: "https://shop.test/no" }],
            ["GET", "/v1/checkout/sessions"]
          ]
          for (const [method, path, body] of attempts) {
            const answer = yield* call(method, path, publishable, body)
            expect([path, answer.status, answer.json.error.type, answer.json.error.code]).toEqual([path, 401, "authentication_error", "api_key_invalid"])
            expect(answer.json.error.message).toContain("publishable key")
          }
          // Nothing was charged or deleted by those attempts.
          expect((yield* call("GET", "/v1/payments", secret)).json.data).toEqual([])
          expect((yield* call("GET", `/v1/payment_methods/${made.id}`, secret)).status).toBe(200)
          // And the card form's door is closed to secret keys, revoked keys and unknown ones.
          expect((yield* call("POST", FORM, secret, card())).status).toBe(401)
          expect((yield* call("POST", FORM, `pk_test_${"x".repeat(40)}`, card())).status).toBe(401)
          expect(
            (yield* raw(`${(yield* shop).baseUrl}${FORM}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(card()) }))
              .json.error.code
          )
            .toBe("api_key_missing")
        }))

      it.effect("a revoked publishable key tokenizes no more", () =>
        Effect.gen(function*() {
          const { call, organization } = yield* shop
          const organizations = yield* Organizations
          const { key, secret: publishable } = yield* organizations.createKey(organization.id, false, "publishable")
          expect((yield* call("POST", FORM, publishable, card())).status).toBe(201)
          yield* organizations.revokeKey(key.id)
          const refused = yield* call("POST", FORM, publishable, card())
          expect([refused.status, refused.json.error.code]).toEqual([401, "api_key_invalid"])
        }))

      it.effect("another organization's cards are out of reach of each key", () =>
        Effect.gen(function*() {
          const first = yield* shop
          const second = yield* shop
          const mine = (yield* first.call("POST", FORM, first.publishable, card())).json
          const theirs = (yield* second.call("POST", FORM, second.publishable, card())).json
          // Vaulted under the organization the publishable key belongs to.
          expect((yield* first.call("GET", `/v1/payment_methods/${mine.id}`, first.secret)).status).toBe(200)
          expect((yield* first.call("GET", `/v1/payment_methods/${theirs.id}`, first.secret)).status).toBe(404)
          expect(mine.card.fingerprint).not.toBe(theirs.card.fingerprint)
          const pay = yield* first.call("POST", "/v1/payments", first.secret, {
            amount: 500,
            currency: "EUR",
            payment_method: { type: "card", token: theirs.id }
          })
          expect(pay.status).toBeGreaterThanOrEqual(400)
          expect(pay.status).toBeLessThan(500)
          expect(pay.json.error.type).toBe("invalid_request_error")
          // A live-mode publishable key vaults live cards, which a test key never charges.
          const live = (yield* (yield* Organizations).createKey(first.organization.id, true, "publishable")).secret
          const liveCard = (yield* first.call("POST", FORM, live, card())).json
          expect(liveCard.livemode).toBe(true)
          const crossed = yield* first.call("POST", "/v1/payments", first.secret, {
            amount: 500,
            currency: "EUR",
            payment_method: { type: "card", token: liveCard.id }
          })
          expect([crossed.status, crossed.json.error.code]).toEqual([400, "payment_method_livemode_mismatch"])
        }))

      it.effect("a checkout session's client secret tokenizes for the session's organization", () =>
        Effect.gen(function*() {
          const { baseUrl, secret, session } = yield* checkoutSetup()
          const made = yield* raw(`${baseUrl}${FORM}`, {
            method: "POST",
            headers: { "service-client-secret": session.client_secret, "content-type": "application/json" },
            body: JSON.stringify(card())
          })
          expect(made.status).toBe(201)
          expect((yield* raw(`${baseUrl}/v1/payment_methods/${made.json.id}`, { headers: json(secret) })).status).toBe(200)
          const wrong = yield* raw(`${baseUrl}${FORM}`, {
            method: "POST",
            headers: { "service-client-secret": `${session.id}_secret_nope`, "content-type": "application/json" },
            body: JSON.stringify(card())
          })
          expect(wrong.status).toBe(401)
        }))
    }
  )
}
