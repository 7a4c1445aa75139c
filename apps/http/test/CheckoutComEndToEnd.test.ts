import { expect, layer } from "@effect/vitest"
import { PaymentPolicy } from "@orchestrator/core"
import { checkoutComSignature, checkoutComToken, fakeCheckoutCom, testDatabases } from "@orchestrator/testing"
import { Duration, Effect } from "effect"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, type RawResponse, runJobs, serverLayer } from "./support/TestServer.js"

const logs: Array<string> = []
/** Every response this suite receives, to search for secrets and Checkout.com's own words at the end. */
const responses: Array<string> = []

const SECRET_KEY = "sk_sbox_TOPSECRETcheckout1"
const SIGNATURE_KEY = "TOPSECRETcheckoutsignature2"
const RETURN_URL = "https://shop.example/back"

/** The worker's reconciliation, without waiting for an attempt to be old enough (real clock here). */
const reconcileNow = Effect.flatMap(
  PaymentPolicy,
  (policy) => runJobs("reconcile-payments").pipe(Effect.provideService(PaymentPolicy, { ...policy, reconcileSchedule: [Duration.zero] }))
)

for (const database of testDatabases()) {
  layer(serverLayer(database.layer, { logs }), { excludeTestServices: true, timeout: "120 seconds" })(
    `Checkout.com through the HTTP API, against its wire-level fake, on ${database.name}`,
    (it) => {
      const api = (baseUrl: string, secret: string) => (path: string, init: { body?: unknown } = {}) =>
        raw(`${baseUrl}${path}`, {
          method: init.body === undefined ? "GET" : "POST",
          headers: json(secret, path === "/v1/payments" || path.endsWith("/refund") ? newKey() : undefined),
          ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
        }).pipe(Effect.tap((response: RawResponse) => Effect.sync(() => responses.push(response.text))))

      const card = (name: string, extra: Record<string, unknown> = {}) => ({
        amount: 1050,
        currency: "EUR",
        payment_method: { type: "card", token: checkoutComToken(name) },
        return_url: RETURN_URL,
        provider: "cko_eu",
        ...extra
      })

      it.scoped("a connection of type checkout_com: success, decline, 3DS and return, manual capture, partial refund, a webhook's news, a forged one refused, a timeout settled once", () =>
        Effect.gen(function*() {
          const fake = yield* fakeCheckoutCom
          const { baseUrl, secret } = yield* merchant()
          const call = api(baseUrl, secret)
          const connectionBody = (name: string, settings: Record<string, unknown>) => ({
            name,
            type: "checkout_com",
            credentials: { secret_key: SECRET_KEY },
            webhook_secret: SIGNATURE_KEY,
            base_url: fake.url,
            settings: { processing_channel_id: fake.processingChannelId, ...settings }
          })
          const connection = yield* call("/v1/provider-connections", { body: connectionBody("cko_eu", {}) })
          expect([connection.status, connection.json.type]).toEqual([201, "checkout_com"])
          const noChannel = yield* call("/v1/provider-connections", { body: { name: "cko_x", type: "checkout_com", credentials: { secret_key: SECRET_KEY } } })
          expect([noChannel.status, noChannel.json.error.param]).toEqual([422, "settings.processing_channel_id"])
          const noKey = yield* call("/v1/provider-connections", {
            body: { name: "cko_y", type: "checkout_com", settings: { processing_channel_id: fake.processingChannelId } }
          })
          expect([noKey.status, noKey.json.error.param]).toEqual([422, "credentials.secret_key"])

          const paid = yield* call("/v1/payments", { body: card("approved") })
          expect([paid.status, paid.json.status, paid.json.amount_captured, paid.json.provider]).toEqual([201, "succeeded", 1050, "cko_eu"])
          expect(paid.json.provider_payment_id).toMatch(/^pay_/)
          expect(paid.json.payment_method).toMatchObject({ brand: "visa", last4: "4242", country: "GB" })
          expect(fake.paymentsFor(paid.json.attempts[0].id)).toBe(1)

          const declined = yield* call("/v1/payments", { body: card("nofunds") })
          expect([declined.status, declined.json.error.code, declined.json.error.payment.status]).toEqual([402, "insufficient_funds", "failed"])
          // Checkout.com's own words stay on the attempt record.
          expect(declined.text).not.toContain("20051")

          const challenged = yield* call("/v1/payments", { body: card("threeds") })
          expect([challenged.status, challenged.json.status]).toEqual([201, "requires_action"])
          expect(challenged.json.next_action.url).toBe(`${fake.url}/fake/3ds/${challenged.json.provider_payment_id}`)
          const atPsp = yield* raw(challenged.json.next_action.url)
          const back = atPsp.headers.get("location")!
          expect(back.startsWith(`${baseUrl}/v1/payments/`)).toBe(true)
          const returned = yield* raw(back)
          expect(returned.status).toBe(303)
          expect(new URL(returned.headers.get("location")!).searchParams.get("payment_id")).toBe(challenged.json.id)
          expect((yield* call(`/v1/payments/${challenged.json.id}`)).json).toMatchObject({ status: "succeeded", amount_captured: 1050 })

          const held = yield* call("/v1/payments", { body: card("approved", { capture: false }) })
          expect(held.json.status).toBe("requires_capture")
          const captured = yield* call(`/v1/payments/${held.json.id}/capture`, { body: { amount: 600 } })
          expect([captured.status, captured.json.status, captured.json.amount_captured]).toEqual([200, "succeeded", 600])
          const partial = yield* call(`/v1/payments/${held.json.id}/refund`, { body: { amount: 200 } })
          expect([partial.status, partial.json.status, partial.json.provider_refund_id]).toEqual([201, "succeeded", expect.stringMatching(/^act_/)])
          expect((yield* call(`/v1/payments/${held.json.id}`)).json.amount_refunded).toBe(200)

          // An outcome Checkout.com tells later: the payment waits, then its signed webhook settles it.
          const later = yield* call("/v1/payments", { body: card("pending") })
          expect([later.status, later.json.status]).toEqual([201, "processing"])
          fake.settle(later.json.provider_payment_id, true)
          const event = fake.event("payment_approved", later.json.provider_payment_id)
          const deliver = (signature: string) =>
            raw(`${baseUrl}/v1/provider-webhooks/${connection.json.id}`, {
              method: "POST",
              headers: { "content-type": "application/json", "cko-signature": signature },
              body: event
            }).pipe(Effect.tap((response: RawResponse) => Effect.sync(() => responses.push(response.text))))
          const forged = yield* deliver(checkoutComSignature("a key that is not ours", event))
          expect([forged.status, forged.json.error.code]).toEqual([400, "webhook_unverified"])
          yield* runJobs("apply-provider-events")
          expect((yield* call(`/v1/payments/${later.json.id}`)).json.status).toBe("processing")
          const delivered = yield* deliver(checkoutComSignature(SIGNATURE_KEY, event))
          expect([delivered.status, delivered.json]).toEqual([200, { received: 1, duplicates: 0 }])
          yield* runJobs("apply-provider-events")
          expect((yield* call(`/v1/payments/${later.json.id}`)).json).toMatchObject({ status: "succeeded", amount_captured: 1050 })

          // No answer within timeout_ms: the payment stays processing; reconciliation settles it, charged once.
          expect((yield* call("/v1/provider-connections", { body: connectionBody("cko_slow", { timeout_ms: 1_000 }) })).status).toBe(201)
          fake.injectFault({ delayMs: 4_000 })
          const slow = yield* call("/v1/payments", { body: card("approved", { provider: "cko_slow" }) })
          expect([slow.status, slow.json.status]).toEqual([201, "processing"])
          expect(slow.json.attempts.map((attempt: any) => [attempt.status, attempt.error_code])).toEqual([["unknown", "timeout"]])
          const reference = slow.json.attempts[0].id as string
          expect(fake.paymentsFor(reference)).toBe(1)
          yield* reconcileNow
          const settled = (yield* call(`/v1/payments/${slow.json.id}`)).json
          expect([settled.status, settled.amount_captured, settled.attempts.length]).toEqual(["succeeded", 1050, 1])
          // Reconciliation sent it again under the same Cko-Idempotency-Key (the late first answer was never recorded: we had hung up).
          expect(fake.exchanges.filter((exchange) => exchange.headers["cko-idempotency-key"] === reference).length).toBeGreaterThanOrEqual(1)
          expect(fake.paymentsFor(reference)).toBe(1)
        }))

      it.effect("live mode: Checkout.com's documented host and the per-merchant {prefix}.api.checkout.com only", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant(true)
          const create = (name: string, base_url?: string) =>
            raw(`${baseUrl}/v1/provider-connections`, {
              method: "POST",
              headers: json(secret),
              body: JSON.stringify({
                name,
                type: "checkout_com",
                credentials: { secret_key: "sk_TOPSECRETcheckout1live" },
                settings: { processing_channel_id: "pc_fakechannel0000000000000000".slice(0, 29) },
                ...(base_url === undefined ? {} : { base_url })
              })
            }).pipe(Effect.tap((response: RawResponse) => Effect.sync(() => responses.push(response.text))))
          for (
            const [name, url] of [["cko_default", undefined], ["cko_api", "https://api.checkout.com"], [
              "cko_prefix",
              "https://1a2b3c4d.api.checkout.com"
            ]] as const
          ) {
            const created = yield* create(name, url)
            expect([name, created.status]).toEqual([name, 201])
          }
          for (
            const url of [
              "https://api.sandbox.checkout.com",
              "https://1a2b3c4d.api.sandbox.checkout.com",
              "https://api.checkout.com.evil.example",
              "http://api.checkout.com"
            ]
          ) {
            const refused = yield* create(`cko_${Math.random().toString(36).slice(2, 8)}`, url)
            expect([url, refused.status, refused.json.error.code, refused.json.error.param]).toEqual([url, 422, "connection_invalid", "base_url"])
          }
        }))

      it.effect("no response or log line shows the Checkout.com key or signature key", () =>
        Effect.sync(() => {
          expect(responses.length).toBeGreaterThan(10)
          for (const secret of ["TOPSECRETcheckout1", SIGNATURE_KEY]) {
            for (const response of responses) expect(response).not.toContain(secret)
            for (const line of logs) expect(line).not.toContain(secret)
          }
        }))
    }
  )
}
