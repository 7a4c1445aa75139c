import { expect, layer } from "@effect/vitest"
import { SandboxLedger } from "@orchestrator/connectors"
import { Organizations } from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { merchant, raw, type RawResponse, serverLayer } from "./support/TestServer.js"

/** The error body, exactly: one top-level key, and the request id of the response. */
const expectError = (response: RawResponse, status: number, expected: Record<string, unknown>) => {
  expect(response.status).toBe(status)
  expect(response.headers.get("content-type")).toContain("application/json")
  expect(Object.keys(response.json)).toEqual(["error"])
  expect(response.json.error).toMatchObject(expected)
  expect(response.json.error.request_id).toBe(response.headers.get("request-id"))
  expect(typeof response.json.error.message).toBe("string")
  expect(response.text).not.toMatch(/at .*\.ts:\d+|SqlError|stack/i)
}

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `errors and authentication over HTTP on ${database.name}`,
    (it) => {
      it.effect("401 for a missing, malformed, unknown, wrongly prefixed or revoked key", () =>
        Effect.gen(function*() {
          const { baseUrl, organization } = yield* merchant()
          const url = `${baseUrl}/v1/payments`
          expectError(yield* raw(url), 401, { type: "authentication_error", code: "api_key_missing" })
          const revoked = yield* (yield* Organizations).createKey(organization.id, false)
          yield* (yield* Organizations).revokeKey(revoked.key.id)
          for (
            const authorization of [
              "Bearer nonsense",
              `Bearer sk_test_${"x".repeat(40)}`,
              `Bearer pk_test_${"x".repeat(40)}`,
              `Basic ${Buffer.from("sk_test_abc:").toString("base64")}`,
              `Bearer ${revoked.secret}`
            ]
          ) {
            const response = yield* raw(url, { headers: { authorization } })
            expect(response.status).toBe(401)
            expect(response.json.error.type).toBe("authentication_error")
          }
          // A key that works, sent with another scheme, does not work.
          const good = yield* (yield* Organizations).createKey(organization.id, false)
          expect((yield* raw(url, { headers: { authorization: `Token ${good.secret}` } })).status).toBe(401)
          expect((yield* raw(url, { headers: { authorization: `Bearer ${good.secret}` } })).status).toBe(200)
        }))

      it.effect("400 with the offending parameter for bad bodies; nothing is created", () =>
        Effect.gen(function*() {
          const { baseUrl, client, secret } = yield* merchant()
          const post = (body: string, key: string | null = newKey()) =>
            raw(`${baseUrl}/v1/payments`, { method: "POST", headers: json(secret, key ?? undefined), body })
          const good = paymentWith("tok_visa")

          expectError(yield* post("{\"amount\": 10"), 400, { code: "invalid_json", param: null })
          expectError(yield* post(""), 400, { type: "invalid_request_error" })
          expectError(yield* post("[]"), 400, { type: "invalid_request_error" })
          expectError(yield* post(JSON.stringify({ ...good, colour: "red" })), 400, {
            code: "parameter_unknown",
            param: "colour"
          })
          expectError(yield* post(JSON.stringify({ ...good, amount: 10.5 })), 400, { code: "parameter_invalid", param: "amount" })
          expectError(yield* post(JSON.stringify({ ...good, amount: "1050" })), 400, { param: "amount" })
          expectError(yield* post(JSON.stringify({ ...good, amount: 0 })), 400, { param: "amount" })
          expectError(yield* post(JSON.stringify({ ...good, amount: 100_000_000 })), 400, { param: "amount" })
          expectError(yield* post(JSON.stringify({ ...good, currency: "eur" })), 400, { param: "currency" })
          expectError(yield* post(JSON.stringify({ ...good, currency: "XYZ" })), 400, { param: "currency" })
          const { amount: _omitted, ...withoutAmount } = good
          expectError(yield* post(JSON.stringify(withoutAmount)), 400, { code: "parameter_missing", param: "amount" })
          expectError(yield* post(JSON.stringify({ ...good, payment_method: { type: "card" } })), 400, {
            code: "parameter_missing",
            param: "payment_method.token"
          })
          expectError(yield* post(JSON.stringify({ ...good, metadata: { big: "x".repeat(501) } })), 400, {
            code: "parameter_invalid_length",
            param: "metadata.big"
          })
          for (const returnUrl of ["javascript:alert(1)", "http://shop:99999/x", "http://[", "/relative"]) {
            expectError(yield* post(JSON.stringify({ ...good, return_url: returnUrl })), 400, { param: "return_url" })
          }
          // PostgreSQL cannot store NUL: refused up front, never a 500.
          expectError(yield* post(JSON.stringify({ ...good, description: "a\u0000b" })), 400, { param: "description" })
          expectError(yield* post(JSON.stringify({ ...good, metadata: { k: "\u0000" } })), 400, { param: "metadata.k" })
          expectError(yield* post(JSON.stringify({ ...good, customer_id: "cus_\u0000" })), 400, { param: "customer_id" })
          const headers = json(secret)
          expectError(yield* raw(`${baseUrl}/v1/payments/pay_%00`, { headers }), 400, { param: "id" })
          expectError(yield* raw(`${baseUrl}/v1/payments?customer_id=%00`, { headers }), 400, { param: "customer_id" })
          expectError(yield* raw(`${baseUrl}/v1/refunds?starting_after=%00`, { headers }), 400, { param: "starting_after" })
          expectError(yield* post(JSON.stringify(good), null), 400, {
            code: "parameter_missing",
            param: "Idempotency-Key"
          })
          expectError(yield* post(JSON.stringify(good), "x".repeat(256)), 400, { param: "Idempotency-Key" })
          expect((yield* client.payments.list({ urlParams: {} })).data).toEqual([])
        }))

      it.effect("400 for half a surrogate pair anywhere in a body; nothing stored, the same key's retry too", () =>
        Effect.gen(function*() {
          const { baseUrl, client, secret } = yield* merchant()
          const good = paymentWith("tok_visa")
          const paid = yield* client.payments.create({ headers: { "idempotency-key": newKey() }, payload: good })
          const lone = "x\ud800y"
          const post = (path: string, body: unknown, key: string) =>
            raw(`${baseUrl}${path}`, { method: "POST", headers: json(secret, key), body: JSON.stringify(body) })
          const cases: ReadonlyArray<readonly [string, unknown, string]> = [
            ["/v1/payments", { ...good, description: lone }, "description"],
            ["/v1/payments", { ...good, metadata: { [lone]: "v" } }, "metadata"],
            ["/v1/payments", { ...good, metadata: { k: lone } }, "metadata.k"],
            ["/v1/payments", { ...good, payment_method: { type: "card", token: lone } }, "payment_method.token"],
            ["/v1/payments", { ...good, description: "\udc00 first" }, "description"],
            [`/v1/payments/${paid.id}/refund`, { reason: lone }, "reason"]
          ]
          for (const [path, body, param] of cases) {
            const key = newKey()
            for (let attempt = 0; attempt < 2; attempt++) {
              const response = yield* post(path, body, key)
              expectError(response, 400, { type: "invalid_request_error" })
              expect(response.json.error.param).toContain(param)
            }
          }
          expect((yield* client.payments.list({ urlParams: {} })).data.map((payment) => payment.id)).toEqual([paid.id])
          expect((yield* client.refunds.list({ urlParams: {} })).data).toEqual([])
          expect(yield* (yield* SandboxLedger).countCharges(paid.id)).toBe(1)
        }))

      it.effect("400 for a body nested absurdly deep, on every endpoint that takes one", () =>
        Effect.gen(function*() {
          const { baseUrl, client, secret } = yield* merchant()
          const paid = yield* client.payments.create({ headers: { "idempotency-key": newKey() }, payload: paymentWith("tok_visa") })
          const deep = "[".repeat(100_000) + "]".repeat(100_000)
          const deepInside = `{"amount": ${"[".repeat(50_000)}1${"]".repeat(50_000)}}`
          for (
            const path of ["/v1/payments", `/v1/payments/${paid.id}/capture`, `/v1/payments/${paid.id}/cancel`, `/v1/payments/${paid.id}/refund`]
          ) {
            for (const body of [deep, deepInside]) {
              const response = yield* raw(`${baseUrl}${path}`, { method: "POST", headers: json(secret, newKey()), body })
              expectError(response, 400, { code: "invalid_json" })
            }
          }
          // JSON of ordinary depth still gets through to the schema.
          const fine = yield* raw(`${baseUrl}/v1/payments/${paid.id}/refund`, {
            method: "POST",
            headers: json(secret, newKey()),
            body: JSON.stringify({ metadata: { a: "b" } })
          })
          expect(fine.status).toBe(201)
        }))

      it.effect("takes a JSON body whatever Content-Type says, as curl -d sends it", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const response = yield* raw(`${baseUrl}/v1/payments`, {
            method: "POST",
            headers: {
              authorization: `Bearer ${secret}`,
              "idempotency-key": newKey(),
              "content-type": "application/x-www-form-urlencoded"
            },
            body: JSON.stringify(paymentWith("tok_visa"))
          })
          expect([response.status, response.json.status]).toEqual([201, "succeeded"])
        }))

      it.effect("413 for a body over 1 MiB", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const huge = JSON.stringify({ ...paymentWith("tok_visa"), description: "x".repeat(1024 * 1024) })
          expectError(
            yield* raw(`${baseUrl}/v1/payments`, { method: "POST", headers: json(secret, newKey()), body: huge }),
            413,
            { code: "payload_too_large" }
          )
        }))

      it.effect("404 with the error body for unknown routes and methods, even without a key", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          expectError(yield* raw(`${baseUrl}/v1/nope`), 404, { code: "route_not_found" })
          expectError(yield* raw(`${baseUrl}/v1/payments`, { method: "DELETE", headers: json(secret) }), 404, {
            code: "route_not_found"
          })
          expectError(yield* raw(`${baseUrl}/v1/payments/pay_unknown`, { headers: json(secret) }), 404, {
            code: "resource_missing",
            param: "id"
          })
          expectError(yield* raw(`${baseUrl}/v1/refunds/ref_unknown`, { headers: json(secret) }), 404, {
            code: "resource_missing"
          })
        }))

      it.effect("400 for an unknown Service-Version; the current one is echoed", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          expectError(
            yield* raw(`${baseUrl}/v1/payments`, { headers: { ...json(secret), "service-version": "2020-01-01" } }),
            400,
            { code: "api_version_invalid", param: "Service-Version" }
          )
          const ok = yield* raw(`${baseUrl}/v1/payments`, { headers: { ...json(secret), "service-version": "2026-11-01" } })
          expect([ok.status, ok.headers.get("service-version")]).toEqual([200, "2026-11-01"])
        }))

      it.effect("serves health, readiness, the OpenAPI document and the docs", () =>
        Effect.gen(function*() {
          const { baseUrl } = yield* merchant()
          expect((yield* raw(`${baseUrl}/healthz`)).json).toEqual({ status: "ok" })
          expect((yield* raw(`${baseUrl}/readyz`)).json).toEqual({ status: "ok" })
          const openapi = (yield* raw(`${baseUrl}/v1/openapi.json`)).json
          expect(openapi.openapi).toMatch(/^3\./)
          expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining([
            "/v1/payments",
            "/v1/payments/{id}",
            "/v1/payments/{id}/capture",
            "/v1/payments/{id}/cancel",
            "/v1/payments/{id}/refund",
            "/v1/payments/{id}/return",
            "/v1/refunds",
            "/v1/refunds/{id}"
          ]))
          expect(Object.keys(openapi.paths["/v1/payments"].post.responses)).toEqual(
            expect.arrayContaining(["201", "400", "401", "402", "409", "422"])
          )
          // Both answers of the customer's return are documented: the redirect, and the page when there is no return_url.
          expect(openapi.paths["/v1/payments/{id}/return"].get.responses["200"].content).toHaveProperty("text/html")
          expect(openapi.paths["/v1/payments/{id}/return"].get.responses).toHaveProperty("303")
          // The document explains itself: no internal notes, no shape the server never sends.
          const text = JSON.stringify(openapi)
          expect(text).not.toMatch(/decisions|§/)
          expect(text).not.toContain("HttpApiDecodeError")
          expect(openapi.paths["/v1/payments/{id}/capture"].post.responses["422"].content["application/json"].schema.anyOf)
            .toHaveLength(2)
          const docs = yield* raw(`${baseUrl}/docs`)
          expect(docs.status).toBe(200)
          expect(docs.headers.get("content-type")).toContain("text/html")
        }))
    }
  )
}
