import { expect, layer } from "@effect/vitest"
import { PaymentStatus } from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { merchant, raw, type RawResponse, serverLayer } from "./support/TestServer.js"

/** The error body with its code and param, and a message that repeats no value past 100 characters. */
const expectError = (response: RawResponse, status: number, expected: { code: string; param?: string | null }) => {
  expect([response.status, response.json?.error?.code, response.json?.error?.param]).toEqual([
    status,
    expected.code,
    ...(expected.param === undefined ? [response.json?.error?.param] : [expected.param])
  ])
  expect(response.json.error.request_id).toBe(response.headers.get("request-id"))
  // No run of one character past 100 (every long value below is one character repeated).
  expect(response.text).not.toMatch(/(.)\1{100}/)
  return response.json.error.message as string
}

/** What a schema is called inside the code: a capitalised compound word, or Effect's own wording. */
const SCHEMA_INTERNALS = /\b(?:[A-Z][a-z0-9]+){2,}\b|Expected|readonly|\{ |NumberFromString|Struct|Class/

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `error messages over HTTP on ${database.name}`,
    (it) => {
      it.effect("a 100-character metadata key is a length error naming metadata, not an unknown parameter", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const post = (metadata: Record<string, string>) =>
            raw(`${baseUrl}/v1/payments`, {
              method: "POST",
              headers: json(secret, newKey()),
              body: JSON.stringify({ ...paymentWith("tok_visa"), metadata })
            })
          const long = expectError(yield* post({ ["k".repeat(100)]: "v" }), 400, {
            code: "parameter_invalid_length",
            param: "metadata"
          })
          expect(long).toBe("Invalid metadata: each key must be at most 40 characters long (it has 100 characters).")
          expect(expectError(yield* post({ "": "v" }), 400, { code: "parameter_invalid_length", param: "metadata" }))
            .toBe("Invalid metadata: each key must not be empty.")
          const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"]))
          expectError(yield* post(many), 400, { code: "parameter_invalid_length", param: "metadata" })
          // Values keep naming their key, which is short enough to name.
          const value = expectError(yield* post({ note: "v".repeat(501) }), 400, {
            code: "parameter_invalid_length",
            param: "metadata.note"
          })
          expect(value).toBe("Invalid metadata.note: must be at most 500 characters long (it has 501 characters).")
          // A 40-character key is fine.
          const fine = yield* post({ ["k".repeat(40)]: "v" })
          expect(fine.status).toBe(201)
        }))

      it.effect("length errors have a length code: body fields, headers, ids in filters", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const body = (extra: Record<string, unknown>, key = newKey()) =>
            raw(`${baseUrl}/v1/payments`, {
              method: "POST",
              headers: json(secret, key),
              body: JSON.stringify({ ...paymentWith("tok_visa"), ...extra })
            })
          const description = expectError(yield* body({ description: "x".repeat(8000) }), 400, {
            code: "parameter_invalid_length",
            param: "description"
          })
          expect(description).toBe("Invalid description: must be at most 5000 characters long (it has 8000 characters).")
          expectError(yield* body({}, "k".repeat(256)), 400, { code: "parameter_invalid_length", param: "Idempotency-Key" })
          const headers = json(secret)
          expectError(yield* raw(`${baseUrl}/v1/payments?customer_id=${"c".repeat(256)}`, { headers }), 400, {
            code: "parameter_invalid_length",
            param: "customer_id"
          })
          expectError(yield* raw(`${baseUrl}/v1/payments?customer_id=`, { headers }), 400, {
            code: "parameter_invalid_length",
            param: "customer_id"
          })
        }))

      it.effect("an unknown status lists the allowed values, never just the first", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const message = expectError(yield* raw(`${baseUrl}/v1/payments?status=bogus`, { headers: json(secret) }), 400, {
            code: "parameter_invalid",
            param: "status"
          })
          expect(message).toBe(
            `Invalid status: must be one of ${PaymentStatus.literals.map((status) => `"${status}"`).join(", ")}, not "bogus".`
          )
          // An 8 000-character status is cut short where it is repeated.
          const long = expectError(
            yield* raw(`${baseUrl}/v1/payments?status=${"s".repeat(8000)}`, { headers: json(secret) }),
            400,
            { code: "parameter_invalid", param: "status" }
          )
          expect(long).toContain(`, not "${"s".repeat(99)}…".`)
        }))

      it.effect("messages say what was expected in the API's terms, never a schema's internal name", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const paid = yield* raw(`${baseUrl}/v1/payments`, {
            method: "POST",
            headers: json(secret, newKey()),
            body: JSON.stringify(paymentWith("tok_visa"))
          })
          const id = paid.json.id as string
          const good = paymentWith("tok_visa")
          const cases: ReadonlyArray<readonly [path: string, body: unknown, param: string | null, message: string]> = [
            ["/v1/payments", "x", null, "The request body must be an object, not a string."],
            ["/v1/payments", [], null, "The request body must be an object, not an array."],
            ["/v1/payments", { ...good, payment_method: "x" }, "payment_method", "Invalid payment_method: must be an object, not a string."],
            [
              "/v1/payments",
              { ...good, payment_method: { type: "bank", token: "tok_visa" } },
              "payment_method.type",
              "Invalid payment_method.type: must be one of \"card\", \"paypal\", \"ideal\", \"bancontact\", not \"bank\"."
            ],
            ["/v1/payments", { ...good, amount: "1050" }, "amount", "Invalid amount: must be a number, not a string."],
            ["/v1/payments", { ...good, capture: "yes" }, "capture", "Invalid capture: must be true or false, not a string."],
            [`/v1/payments/${id}/capture`, "x", null, "The request body must be an object or null, not a string."],
            [`/v1/payments/${id}/refund`, { amount: [1] }, "amount", "Invalid amount: must be a number, not an array."],
            ["/v1/customers", { email: 5 }, "email", ""],
            ["/v1/webhooks/endpoints", { url: ["x"] }, "url", ""]
          ]
          for (const [path, body, param, expected] of cases) {
            const message = expectError(
              yield* raw(`${baseUrl}${path}`, { method: "POST", headers: json(secret, newKey()), body: JSON.stringify(body) }),
              400,
              { code: "parameter_invalid", param }
            )
            if (expected !== "") expect(message).toBe(expected)
            expect(message).not.toMatch(SCHEMA_INTERNALS)
          }
        }))

      it.effect("an 8 000-character value, a 5 007-character URL and an 8 KB Service-Version are echoed cut short", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const headers = json(secret)
          const path = `/v1/${"a".repeat(5004)}`
          const route = expectError(yield* raw(`${baseUrl}${path}`, { headers }), 404, { code: "route_not_found", param: null })
          expect(route).toBe(`Unrecognized request URL (GET ${path.slice(0, 99)}…).`)
          const version = expectError(
            yield* raw(`${baseUrl}/v1/payments`, { headers: { ...headers, "service-version": "v".repeat(8192) } }),
            400,
            { code: "api_version_invalid", param: "Service-Version" }
          )
          expect(version).toBe(`Unknown Service-Version '${"v".repeat(99)}…'. The current version is 2026-11-01.`)
          const currency = expectError(
            yield* raw(`${baseUrl}/v1/payments`, {
              method: "POST",
              headers: json(secret, newKey()),
              body: JSON.stringify({ ...paymentWith("tok_visa"), currency: "E".repeat(8000) })
            }),
            400,
            { code: "parameter_invalid", param: "currency" }
          )
          expect(currency.length).toBeLessThan(200)
          const unknown = expectError(
            yield* raw(`${baseUrl}/v1/payments?${"q".repeat(8000)}=1`, { headers }),
            400,
            { code: "parameter_unknown" }
          )
          expect(unknown).toBe(`Received unknown parameter: ${"q".repeat(99)}….`)
          const cursor = expectError(
            yield* raw(`${baseUrl}/v1/payments?starting_after=pay_${"c".repeat(200)}`, { headers }),
            400,
            { code: "parameter_invalid", param: "starting_after" }
          )
          expect(cursor).toBe(`No object 'pay_${"c".repeat(95)}…' to start after.`)
          // A forced provider of the longest name an identifier may have, that no connection has.
          const forced = yield* raw(`${baseUrl}/v1/payments`, {
            method: "POST",
            headers: json(secret, newKey()),
            body: JSON.stringify({ ...paymentWith("tok_visa"), provider: "p".repeat(255) })
          })
          expect(forced.status).toBe(422)
          expect(forced.text).not.toMatch(/p{101}/)
        }))

      it.effect("limit takes plain decimal digits only, on every list", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const headers = json(secret)
          const document = (yield* raw(`${baseUrl}/v1/openapi.json`)).json
          const lists = Object.entries<any>(document.paths)
            .filter(([, operations]) => operations.get?.parameters?.some((parameter: any) => parameter.name === "limit"))
            .map(([path]) => path)
            // A list under one resource (a card's accesses) needs an id of its own: its own suite checks its limit.
            .filter((path) => !path.includes("{"))
          expect(lists).toEqual(expect.arrayContaining(["/v1/payments", "/v1/refunds", "/v1/events", "/v1/customers"]))
          expect(lists.length).toBeGreaterThanOrEqual(12)
          for (const list of lists) {
            for (const limit of ["0x10", "1e1", "+5", "005", "0", "101", " 5", "5.0", "-1", ""]) {
              const message = expectError(
                yield* raw(`${baseUrl}${list}?limit=${encodeURIComponent(limit)}`, { headers }),
                400,
                { code: "parameter_invalid", param: "limit" }
              )
              expect(message).toBe("Invalid limit: must be a whole number from 1 to 100 in plain digits, e.g. 20.")
            }
            for (const limit of ["1", "20", "100"]) {
              expect((yield* raw(`${baseUrl}${list}?limit=${limit}`, { headers })).status).toBe(200)
            }
          }
          expectError(yield* raw(`${baseUrl}/v1/insights?hours=0x10`, { headers }), 400, { code: "parameter_invalid", param: "hours" })
          expect((yield* raw(`${baseUrl}/v1/insights?hours=24`, { headers })).status).toBe(200)
        }))

      it.effect("unknown query parameters answer 400 parameter_unknown, __proto__ included, on every GET", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const headers = json(secret)
          const document = (yield* raw(`${baseUrl}/v1/openapi.json`)).json
          const gets = Object.entries<any>(document.paths)
            .filter(([, operations]) => operations.get !== undefined)
            .map(([path]) => path.replace("{id}", "pay_nope"))
            // The PSP's return takes whatever the PSP appends.
            .filter((path) => !path.endsWith("/return"))
          for (const path of gets) {
            for (const query of ["__proto__=x", "colour=red", "constructor=1"]) {
              const response = yield* raw(`${baseUrl}${path}?${query}`, { headers })
              expectError(response, 400, { code: "parameter_unknown", param: query.split("=")[0]! })
            }
          }
          expectError(yield* raw(`${baseUrl}/v1/payments/pay_nope/return?__proto__=x`), 400, {
            code: "parameter_unknown",
            param: "__proto__"
          })
          expect((yield* raw(`${baseUrl}/v1/payments?limit=2`, { headers })).status).toBe(200)
          // A credential an endpoint takes in the query is declared: the client secret of a checkout session.
          const cancel = (query: string) => raw(`${baseUrl}/v1/checkout/sessions/cs_nope/cancel?${query}`, { method: "POST", headers: json(secret, newKey()) })
          expectError(yield* cancel("client_secret=cs_nope_secret_x"), 404, { code: "resource_missing", param: "id" })
          expectError(yield* cancel("client_secret=x&colour=red"), 400, { code: "parameter_unknown", param: "colour" })
        }))

      it.effect("the currency filter takes an ISO 4217 code, as payments do", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const headers = json(secret)
          for (const currency of ["eur|XXX", "eur", "XXX", "EURO", "E".repeat(300)]) {
            const message = expectError(
              yield* raw(`${baseUrl}/v1/payments?currency=${encodeURIComponent(currency)}`, { headers }),
              400,
              { code: "parameter_invalid", param: "currency" }
            )
            expect(message).toBe("Invalid currency: must be an active ISO 4217 currency code in upper case, e.g. EUR.")
          }
          const paid = yield* raw(`${baseUrl}/v1/payments`, {
            method: "POST",
            headers: json(secret, newKey()),
            body: JSON.stringify(paymentWith("tok_visa"))
          })
          const listed = yield* raw(`${baseUrl}/v1/payments?currency=EUR`, { headers })
          expect(listed.json.data.map((payment: { id: string }) => payment.id)).toEqual([paid.json.id])
        }))

      it.effect("an id of any length past 100 characters answers 404 resource_missing, on every object", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const headers = json(secret)
          const document = (yield* raw(`${baseUrl}/v1/openapi.json`)).json
          const retrievals = Object.entries<any>(document.paths)
            .filter(([path, operations]) => path.endsWith("/{id}") && operations.get !== undefined)
            .map(([path]) => path)
          expect(retrievals.length).toBeGreaterThanOrEqual(13)
          for (const path of retrievals) {
            for (const length of [101, 256, 5000]) {
              const id = `x_${"i".repeat(length - 2)}`
              const message = expectError(yield* raw(`${baseUrl}${path.replace("{id}", id)}`, { headers }), 404, {
                code: "resource_missing",
                param: "id"
              })
              expect(message).toContain(`'x_${"i".repeat(97)}…'`)
            }
          }
          // Writes on a long id too: nothing to capture.
          expectError(
            yield* raw(`${baseUrl}/v1/payments/pay_${"i".repeat(300)}/capture`, { method: "POST", headers: json(secret, newKey()) }),
            404,
            { code: "resource_missing", param: "id" }
          )
        }))

      it.effect("matrix parameters are no route: 404 route_not_found", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const headers = json(secret)
          const paid = yield* raw(`${baseUrl}/v1/payments`, {
            method: "POST",
            headers: json(secret, newKey()),
            body: JSON.stringify(paymentWith("tok_visa"))
          })
          for (const path of [`/v1/payments/${paid.json.id};x=1`, "/v1/payments/pay_123;x=1", "/v1/payments;x=1", "/v1/refunds;limit=1"]) {
            const message = expectError(yield* raw(`${baseUrl}${path}`, { headers }), 404, { code: "route_not_found", param: null })
            expect(message).toBe(`Unrecognized request URL (GET ${path}).`)
          }
          // The id itself still answers.
          expect((yield* raw(`${baseUrl}/v1/payments/${paid.json.id}`, { headers })).status).toBe(200)
        }))
    }
  )
}
