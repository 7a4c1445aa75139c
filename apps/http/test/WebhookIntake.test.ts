import { expect, layer } from "@effect/vitest"
import { providerWebhooksThrottledTotal, WebhookIntakeLimit } from "@orchestrator/core"
import { fakeMollie, fakePayPal, testDatabases } from "@orchestrator/testing"
import { Effect, Layer, Metric } from "effect"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, type RawResponse, runJobs, serverLayer } from "./support/TestServer.js"

/** A small intake limit, so the suite reaches it: 5 at once, and none given back during the test. */
const LIMIT = 5
const intakeLimit = Layer.succeed(WebhookIntakeLimit, { count: LIMIT, periodMs: 600_000 })

const WEBHOOK_ID = "8PT597110X687430LFAKE"

const throttledSoFar = (provider: string) =>
  Effect.map(Metric.value(Metric.tagged(providerWebhooksThrottledTotal, "provider", provider)), (state) => state.count)

const statusCounts = (answers: ReadonlyArray<RawResponse>) =>
  answers.reduce<Record<number, number>>((counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {})

const post = (baseUrl: string, connectionId: string, body: string, headers: Record<string, string>) =>
  raw(`${baseUrl}/v1/provider-webhooks/${connectionId}`, { method: "POST", headers, body })

const randomId = () => `tr_${Math.random().toString(36).slice(2, 12)}`

for (const database of testDatabases()) {
  layer(Layer.fresh(serverLayer(database.layer)).pipe(Layer.provide(intakeLimit)), { excludeTestServices: true, timeout: "120 seconds" })(
    `PSP webhook intake bounded per connection, on ${database.name}`,
    (it) => {
      it.scoped("Mollie: made-up ids cost at most the limit in calls, then 429 with Retry-After and the metric; an id Mollie disowned is refused unasked", () =>
        Effect.gen(function*() {
          const mollie = yield* fakeMollie
          const { baseUrl, secret } = yield* merchant()
          const connection = yield* raw(`${baseUrl}/v1/provider-connections`, {
            method: "POST",
            headers: json(secret),
            body: JSON.stringify({ name: "mollie_eu", type: "mollie", credentials: { api_key: "test_IntakeSuiteKey01" }, base_url: mollie.url })
          })
          expect(connection.status).toBe(201)
          const form = { "content-type": "application/x-www-form-urlencoded" }
          const before = yield* throttledSoFar("mollie")

          // One id, refused by Mollie: posted again, it is refused the same way without asking Mollie again.
          const first = yield* post(baseUrl, connection.json.id, mollie.webhookBody("tr_Unknown0001"), form)
          expect([first.status, first.json.error.code]).toEqual([400, "webhook_unverified"])
          const asked = mollie.exchanges.length
          const again = yield* Effect.all(Array.from({ length: 10 }, () => post(baseUrl, connection.json.id, mollie.webhookBody("tr_Unknown0001"), form)))
          expect(statusCounts(again)).toEqual({ 400: 10 })
          expect(again[0]!.json.error.message).toBe(first.json.error.message)
          expect(mollie.exchanges.length).toBe(asked)

          // 40 made-up ids: the first call above and LIMIT - 1 more reach Mollie; the rest are 429 before any call.
          const forged = yield* Effect.all(Array.from({ length: 40 }, () => post(baseUrl, connection.json.id, mollie.webhookBody(randomId()), form)))
          expect(statusCounts(forged)).toEqual({ 400: LIMIT - 1, 429: 40 - (LIMIT - 1) })
          expect(mollie.exchanges.length).toBe(LIMIT)
          const refused = forged.find((answer) => answer.status === 429)!
          expect(refused.json.error).toMatchObject({ type: "rate_limit_error", code: "rate_limit_exceeded", param: null })
          expect(refused.json.error.request_id).toBe(refused.headers.get("request-id"))
          expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
          expect((yield* throttledSoFar("mollie")) - before).toBe(40 - (LIMIT - 1))
          // The limit is the connection's: the merchant's API is not touched by it.
          expect((yield* raw(`${baseUrl}/v1/payments?limit=1`, { headers: json(secret) })).status).toBe(200)
        }))

      it.scoped("PayPal: a delivery already stored is answered as a repeat without PayPal's verify call; forged ones past the limit get 429 unverified", () =>
        Effect.gen(function*() {
          const paypal = yield* fakePayPal
          const { baseUrl, secret } = yield* merchant()
          const call = (path: string, body?: unknown) =>
            raw(`${baseUrl}${path}`, {
              method: body === undefined ? "GET" : "POST",
              headers: json(secret, path === "/v1/payments" ? newKey() : undefined),
              ...(body === undefined ? {} : { body: JSON.stringify(body) })
            })
          const connection = yield* call("/v1/provider-connections", {
            name: "paypal_eu",
            type: "paypal",
            credentials: { client_id: paypal.clientId, client_secret: paypal.clientSecret },
            base_url: paypal.url,
            settings: { webhook_id: WEBHOOK_ID }
          })
          expect(connection.status).toBe(201)
          const verifyCalls = () => paypal.exchanges.filter((exchange) => exchange.url === "/v1/notifications/verify-webhook-signature").length

          // The payer approves and comes back: the capture is PENDING; PayPal's webhook says it completed.
          const payment = yield* call("/v1/payments", {
            amount: 1050,
            currency: "EUR",
            payment_method: { type: "paypal" },
            provider: "paypal_eu",
            return_url: "https://shop.example/back"
          })
          const atPayPal = yield* raw(`${payment.json.next_action.url}?funding=pending`)
          expect((yield* raw(atPayPal.headers.get("location")!)).status).toBe(303)
          const delivery = paypal.webhook(WEBHOOK_ID, "PAYMENT.CAPTURE.COMPLETED", paypal.settleCapture(payment.json.provider_payment_id, "COMPLETED"))
          const delivered = yield* post(baseUrl, connection.json.id, delivery.body, delivery.headers)
          expect([delivered.status, delivered.json]).toEqual([200, { received: 1, duplicates: 0 }])
          expect(verifyCalls()).toBe(1)
          // PayPal delivers it again (it does, until it hears 2xx in time): a repeat, and PayPal is not asked.
          const repeats = yield* Effect.all(Array.from({ length: 10 }, () => post(baseUrl, connection.json.id, delivery.body, delivery.headers)))
          expect(repeats.map((answer) => [answer.status, answer.json])).toEqual(Array(10).fill([200, { received: 0, duplicates: 1 }]))
          expect(verifyCalls()).toBe(1)
          yield* runJobs("apply-provider-events")
          expect((yield* call(`/v1/payments/${payment.json.id}`)).json.status).toBe("succeeded")

          // Forged deliveries, each a new event id: LIMIT - 1 more verify calls, then 429 before PayPal is asked.
          const forged = yield* Effect.all(
            Array.from(
              { length: 20 },
              (_, at) => post(baseUrl, connection.json.id, delivery.body.replace(/"id":"[^"]+"/, `"id":"WH-FORGED-${at}"`), delivery.headers)
            )
          )
          expect(statusCounts(forged)).toEqual({ 400: LIMIT - 1, 429: 20 - (LIMIT - 1) })
          expect(verifyCalls()).toBe(LIMIT)
        }))
    }
  )
}
