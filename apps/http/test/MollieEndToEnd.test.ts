import { expect, layer } from "@effect/vitest"
import { PaymentPolicy } from "@orchestrator/core"
import { fakeMollie, testDatabases } from "@orchestrator/testing"
import { Duration, Effect } from "effect"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, type RawResponse, runJobs, serverLayer } from "./support/TestServer.js"

const logs: Array<string> = []
/** Every response this suite receives, to search for the API key at the end. */
const responses: Array<string> = []

const API_KEY = "test_TOPSECRETmollieKey1"
const RETURN_URL = "https://shop.example/back"

/** The worker's reconciliation, without waiting for an attempt to be old enough (real clock here). */
const reconcileNow = Effect.flatMap(
  PaymentPolicy,
  (policy) => runJobs("reconcile-payments").pipe(Effect.provideService(PaymentPolicy, { ...policy, reconcileSchedule: [Duration.zero] }))
)

for (const database of testDatabases()) {
  layer(serverLayer(database.layer, { logs }), { excludeTestServices: true, timeout: "120 seconds" })(
    `Mollie through the HTTP API, against its wire-level fake, on ${database.name}`,
    (it) => {
      const api = (baseUrl: string, secret: string) => (path: string, init: { method?: string; body?: unknown } = {}) =>
        raw(`${baseUrl}${path}`, {
          method: init.method ?? (init.body === undefined ? "GET" : "POST"),
          headers: json(secret, path === "/v1/payments" || path.endsWith("/refund") ? newKey() : undefined),
          ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
        }).pipe(Effect.tap((response: RawResponse) => Effect.sync(() => responses.push(response.text))))

      const card = (token: string, extra: Record<string, unknown> = {}) => ({
        amount: 1050,
        currency: "EUR",
        payment_method: { type: "card", token },
        return_url: RETURN_URL,
        provider: "mollie_eu",
        ...extra
      })

      it.scoped("checkout and back, a failed payment, manual capture, a partial refund, webhooks fetched (unknown ids refused), a lost answer reconciled with one payment", () =>
        Effect.gen(function*() {
          const mollie = yield* fakeMollie
          const { baseUrl, secret } = yield* merchant()
          const call = api(baseUrl, secret)
          const webhook = (connectionId: string, body: string) =>
            raw(`${baseUrl}/v1/provider-webhooks/${connectionId}`, {
              method: "POST",
              headers: { "content-type": "application/x-www-form-urlencoded" },
              body
            })

          // A live key on a test connection is refused when the connection is created, clearly.
          const wrongMode = yield* call("/v1/provider-connections", {
            body: { name: "mollie_live", type: "mollie", credentials: { api_key: "live_TOPSECRETliveKey9" }, base_url: mollie.url }
          })
          expect([wrongMode.status, wrongMode.json.error.param]).toEqual([422, "credentials.api_key"])
          expect(wrongMode.json.error.message).toContain("live_ key on a test-mode connection")
          const connection = yield* call("/v1/provider-connections", {
            body: { name: "mollie_eu", type: "mollie", credentials: { api_key: API_KEY }, base_url: mollie.url, settings: { timeout_ms: 20_000 } }
          })
          expect([connection.status, connection.json.type]).toEqual([201, "mollie"])
          const connectionId = connection.json.id as string

          // Through Mollie's checkout and back: the return asks Mollie, and the payment succeeds.
          const checkout = yield* call("/v1/payments", { body: card("tkn_3ds") })
          expect([checkout.status, checkout.json.status]).toEqual([201, "requires_action"])
          expect(checkout.json.next_action.url).toBe(`${mollie.url}/fake/3ds/${checkout.json.provider_payment_id}`)
          const atMollie = yield* raw(checkout.json.next_action.url)
          const back = atMollie.headers.get("location")!
          expect(back.startsWith(`${baseUrl}/v1/payments/${checkout.json.id}/return`)).toBe(true)
          const returned = yield* raw(back)
          expect(returned.status).toBe(303)
          expect((yield* call(`/v1/payments/${checkout.json.id}`)).json).toMatchObject({
            status: "succeeded",
            amount_captured: 1050,
            payment_method: { brand: "visa", last4: "4242", country: "NL" }
          })
          expect(mollie.paymentsFor(checkout.json.attempts[0].id)).toBe(1)

          // A payment the issuer declines fails with our code; Mollie's words are not shown.
          const declined = yield* call("/v1/payments", { body: card("tkn_insufficient_funds") })
          expect([declined.status, declined.json.error.code, declined.json.error.payment.status]).toEqual([402, "insufficient_funds", "failed"])
          expect(declined.text).not.toContain("fake Mollie")

          // Manual capture of part, then a partial refund that Mollie settles and tells by webhook.
          const held = yield* call("/v1/payments", { body: card("tkn_paid", { capture: false }) })
          expect(held.json.status).toBe("requires_capture")
          const captured = yield* call(`/v1/payments/${held.json.id}/capture`, { body: { amount: 600 } })
          expect([captured.status, captured.json.status, captured.json.amount_captured]).toEqual([200, "succeeded", 600])
          const partial = yield* call(`/v1/payments/${held.json.id}/refund`, { body: { amount: 200 } })
          expect([partial.status, partial.json.status, partial.json.provider_refund_id]).toEqual([201, "pending", expect.stringMatching(/^re_/)])
          mollie.settleRefund(partial.json.provider_refund_id, "refunded")
          const told = yield* webhook(connectionId, mollie.webhookBody(held.json.provider_payment_id))
          expect(told.status).toBe(200)
          yield* runJobs("apply-provider-events")
          expect((yield* call(`/v1/refunds/${partial.json.id}`)).json.status).toBe("succeeded")
          expect((yield* call(`/v1/payments/${held.json.id}`)).json.amount_refunded).toBe(200)

          // An asynchronous outcome: pending at Mollie, settled by its webhook (an id only, fetched).
          const slow = yield* call("/v1/payments", { body: card("tkn_pending") })
          expect(slow.json.status).toBe("processing")
          mollie.settle(slow.json.provider_payment_id, "paid")
          const delivered = yield* webhook(connectionId, mollie.webhookBody(slow.json.provider_payment_id))
          expect([delivered.status, delivered.json]).toEqual([200, { received: 1, duplicates: 0 }])
          // Paid: its refunds and chargebacks are read with it.
          expect(mollie.exchanges.slice(-2).map((exchange) => exchange.url)).toEqual([
            `/v2/payments/${slow.json.provider_payment_id}/refunds?limit=250`,
            `/v2/payments/${slow.json.provider_payment_id}/chargebacks?limit=250`
          ])
          yield* runJobs("apply-provider-events")
          expect((yield* call(`/v1/payments/${slow.json.id}`)).json).toMatchObject({ status: "succeeded", amount_captured: 1050 })
          // Told again (Mollie retries): the same state is one event, stored once.
          expect((yield* webhook(connectionId, mollie.webhookBody(slow.json.provider_payment_id))).json).toEqual({ received: 0, duplicates: 1 })

          // An id Mollie does not know (a forged call to our endpoint) is refused, and nothing moves.
          const forged = yield* webhook(connectionId, mollie.webhookBody("tr_Forged0001"))
          expect([forged.status, forged.json.error.code]).toEqual([400, "webhook_unverified"])
          const garbage = yield* webhook(connectionId, "{\"id\":\"tr_Fake00001\",\"status\":\"paid\"}")
          expect([garbage.status, garbage.json.error.code]).toEqual([400, "webhook_unverified"])

          // Mollie creates the payment, then the connection drops before the answer: reconciliation settles it, one payment.
          mollie.injectFault("reset")
          const lost = yield* call("/v1/payments", { body: card("tkn_paid") })
          expect([lost.status, lost.json.status]).toEqual([201, "processing"])
          const reference = lost.json.attempts[0].id as string
          expect(mollie.paymentsFor(reference)).toBe(1)
          yield* reconcileNow
          expect((yield* call(`/v1/payments/${lost.json.id}`)).json).toMatchObject({
            status: "succeeded",
            amount_captured: 1050,
            provider_payment_id: mollie.paymentsWithReference(reference)[0]!.id
          })
          expect(mollie.paymentsWithReference(reference)).toHaveLength(1)

          // The API key never reaches a response or a log line.
          for (const text of [...responses, ...logs]) expect(text).not.toContain("TOPSECRET")
        }))

      it.scoped("Mollie slower than timeout_ms: the payment answers processing, and reconciliation settles it from Mollie's record, one payment", () =>
        Effect.gen(function*() {
          const mollie = yield* fakeMollie
          const { baseUrl, secret } = yield* merchant()
          const call = api(baseUrl, secret)
          const created = yield* call("/v1/provider-connections", {
            body: { name: "mollie_eu", type: "mollie", credentials: { api_key: API_KEY }, base_url: mollie.url, settings: { timeout_ms: 1_000 } }
          })
          expect(created.status).toBe(201)
          // Mollie creates the payment at once and answers far past the connection's deadline.
          mollie.injectFault({ delayMs: 6_000 })
          const answered = yield* call("/v1/payments", { body: card("tkn_paid", { amount: 2500 }) })
          expect([answered.status, answered.json.status]).toEqual([201, "processing"])
          expect(answered.json.attempts.map((attempt: any) => [attempt.status, attempt.error_code])).toEqual([["unknown", "timeout"]])
          const reference = answered.json.attempts[0].id as string
          expect(mollie.paymentsFor(reference)).toBe(1)
          yield* reconcileNow
          expect((yield* call(`/v1/payments/${answered.json.id}`)).json).toMatchObject({ status: "succeeded", amount_captured: 2500 })
          // Found by our reference among Mollie's newest payments: none created twice.
          expect(mollie.paymentsWithReference(reference)).toHaveLength(1)
          expect(mollie.payments.size).toBe(1)
        }))
    }
  )
}
