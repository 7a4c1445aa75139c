import { expect, layer } from "@effect/vitest"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { createHmac } from "node:crypto"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { merchant, raw, type RawResponse, serverLayer } from "./support/TestServer.js"

/**
 * NUL, half a surrogate pair and bytes that are not UTF-8 cannot be stored: wherever a request
 * carries them (path, query, JSON body, a PSP's signed webhook, the sandbox's own pages) the answer
 * is a 400 naming where, with the error body, and never the 500 of a database refusing them.
 */

const expectUnstorable = (response: RawResponse, param: string | null, code = "parameter_invalid") => {
  expect([response.status, response.json?.error?.type, response.json?.error?.code, response.json?.error?.param])
    .toEqual([400, "invalid_request_error", code, param])
  expect(response.json.error.request_id).toBe(response.headers.get("request-id"))
  expect(response.json.error.message).toMatch(/NUL|surrogate/)
}

/** A header for a body signed like the sandbox PSP and Stripe sign theirs. */
const signature = (secret: string, body: string) => {
  const t = Math.floor(Date.now() / 1000)
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`
}

const sandboxEvent = (id: string, charge: Record<string, unknown> = {}) =>
  JSON.stringify({
    id,
    type: "charge.updated",
    created: Math.floor(Date.now() / 1000),
    data: {
      charge: {
        id: "ch_unknown",
        reference: "att_unknown",
        merchant_reference: "pay_unknown",
        amount: 1050,
        currency: "EUR",
        token: "tok_visa",
        capture: true,
        status: "failed",
        amount_captured: 0,
        failure_code: "card_declined",
        failure_message: "Refused.",
        ...charge
      }
    }
  })

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `text the database cannot store, anywhere in a request, on ${database.name}`,
    (it) => {
      it.effect("in a path: 400 naming the path parameter, for the API and the sandbox's 3D Secure pages alike", () =>
        Effect.gen(function*() {
          const { baseUrl, client, secret } = yield* merchant()
          const headers = json(secret)
          const paid = yield* client.payments.create({ headers: { "idempotency-key": newKey() }, payload: paymentWith("tok_visa") })
          for (const id of ["pay_%00", "%ED%A0%80", `${paid.id}%00`, "%FF%FE", "%C0%80"]) {
            expectUnstorable(yield* raw(`${baseUrl}/v1/payments/${id}`, { headers }), "id")
          }
          const refund = yield* raw(`${baseUrl}/v1/payments/${paid.id}%ED%B0%80/refund`, {
            method: "POST",
            headers: json(secret, newKey()),
            body: "{}"
          })
          expectUnstorable(refund, "id")
          // Encoded characters that are text still reach the route: an unknown id, not a refusal.
          expect((yield* raw(`${baseUrl}/v1/payments/pay_%F0%9F%92%B3`, { headers })).json.error.code).toBe("resource_missing")

          // The sandbox's challenge pages need no key: no 500 for anyone.
          for (const path of ["/sandbox/3ds/%00", "/sandbox/3ds/%ED%A0%80"]) {
            expectUnstorable(yield* raw(`${baseUrl}${path}`), null)
          }
          for (const result of ["complete", "fail"]) {
            expectUnstorable(yield* raw(`${baseUrl}/sandbox/3ds/%00/${result}`, { method: "POST" }), null)
            expectUnstorable(yield* raw(`${baseUrl}/sandbox/3ds/ch_x%00/${result}`, { method: "POST" }), null)
          }
          expect((yield* raw(`${baseUrl}/sandbox/3ds/ch_unknown`)).status).toBe(404)
        }))

      it.effect("in a query: 400 naming the parameter, or null when its name is what cannot be stored", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const headers = json(secret)
          expectUnstorable(yield* raw(`${baseUrl}/v1/payments?customer_id=%00`, { headers }), "customer_id")
          expectUnstorable(yield* raw(`${baseUrl}/v1/payments?customer_id=cus%ED%A0%80`, { headers }), "customer_id")
          expectUnstorable(yield* raw(`${baseUrl}/v1/refunds?limit=10&starting_after=%ED%BF%BF`, { headers }), "starting_after")
          expectUnstorable(yield* raw(`${baseUrl}/v1/events?type=%FF`, { headers }), "type")
          expectUnstorable(yield* raw(`${baseUrl}/v1/payments?x%00=1`, { headers }), null)
          // Refused before authentication: nothing of it reaches the database, key or not.
          expectUnstorable(yield* raw(`${baseUrl}/v1/payments?customer_id=%00`), "customer_id")
        }))

      it.effect("in a JSON body, on any endpoint: 400 naming the member; nothing is created", () =>
        Effect.gen(function*() {
          const { baseUrl, client, secret } = yield* merchant()
          const post = (path: string, body: string, method = "POST") => raw(`${baseUrl}${path}`, { method, headers: json(secret, newKey()), body })
          expectUnstorable(
            yield* post("/v1/webhooks/endpoints", "{\"url\":\"https://shop.example/hooks\",\"enabled_events\":[\"payment.created\",\"x\\u0000\"]}"),
            "enabled_events.1"
          )
          expectUnstorable(yield* post("/v1/customers", "{\"email\":\"a@b.example\",\"name\":\"\\udfff\"}"), "name")
          expectUnstorable(yield* post("/v1/organization", "{\"name\":\"\\u0000\"}", "PATCH"), "name")
          expectUnstorable(
            yield* post("/v1/payments", JSON.stringify({ ...paymentWith("tok_visa"), metadata: { ["k\ud800"]: "v" } })),
            "metadata"
          )
          expect((yield* client.payments.list({ urlParams: {} })).data).toEqual([])
          expect((yield* client.webhooks.listEndpoints({ urlParams: {} })).data).toEqual([])
        }))

      it.effect("in a signed sandbox PSP webhook: 400 naming the field, after the signature is checked", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const created = yield* raw(`${baseUrl}/v1/provider-connections`, {
            method: "POST",
            headers: json(secret, newKey()),
            body: JSON.stringify({ name: "psp_text", type: "sandbox", webhook_secret: "whsec_text_secret" })
          })
          const deliver = (body: string, signed = true) =>
            raw(`${baseUrl}/v1/provider-webhooks/${created.json.id}`, {
              method: "POST",
              headers: { "content-type": "application/json", ...(signed ? { "service-signature": signature("whsec_text_secret", body) } : {}) },
              body
            })
          expectUnstorable(yield* deliver(sandboxEvent("sbev_\u0000")), "id", "webhook_unverified")
          expectUnstorable(yield* deliver(sandboxEvent("sbev_\ud800")), "id", "webhook_unverified")
          expectUnstorable(yield* deliver(sandboxEvent("sbev_x", { failure_message: "Re\u0000fused" })), "data.charge.failure_message", "webhook_unverified")
          expectUnstorable(yield* deliver(sandboxEvent("sbev_y", { reference: "\udc00att" })), "data.charge.reference", "webhook_unverified")
          // Unsigned, it is refused for its signature before anything reads it.
          const unsigned = yield* deliver(sandboxEvent("sbev_\u0000"), false)
          expect([unsigned.status, unsigned.json.error.code, unsigned.json.error.param]).toEqual([400, "webhook_unverified", null])
          // The same event with an id that can be stored is taken, once.
          expect((yield* deliver(sandboxEvent("sbev_clean"))).json).toEqual({ received: 1, duplicates: 0 })
          expect((yield* deliver(sandboxEvent("sbev_clean"))).json).toEqual({ received: 0, duplicates: 1 })
        }))

      it.effect("in a signed Stripe webhook: 400 naming the field", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const created = yield* raw(`${baseUrl}/v1/provider-connections`, {
            method: "POST",
            headers: json(secret, newKey()),
            body: JSON.stringify({
              name: "stripe_text",
              type: "stripe",
              credentials: { secret_key: "sk_test_text" },
              webhook_secret: "whsec_stripe_text"
            })
          })
          expect(created.status).toBe(201)
          const event = (id: string, type: string) =>
            JSON.stringify({
              id,
              object: "event",
              type,
              created: Math.floor(Date.now() / 1000),
              livemode: false,
              data: {
                object: {
                  id: "re_unknown",
                  object: "refund",
                  amount: 100,
                  currency: "eur",
                  metadata: {},
                  payment_intent: "pi_unknown",
                  status: "succeeded",
                  reason: null
                }
              }
            })
          // A refund Stripe reports, and an event type nothing here reads: refused all the same.
          for (const [id, type] of [["evt_\u0000", "charge.refund.updated"], ["evt_\ud83d", "charge.refund.updated"], ["evt_\u0000", "customer.created"]]) {
            const body = event(id!, type!)
            const answer = yield* raw(`${baseUrl}/v1/provider-webhooks/${created.json.id}`, {
              method: "POST",
              headers: { "content-type": "application/json", "stripe-signature": signature("whsec_stripe_text", body) },
              body
            })
            expectUnstorable(answer, "id", "webhook_unverified")
          }
        }))
    }
  )
}
