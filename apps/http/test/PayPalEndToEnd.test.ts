import { expect, layer } from "@effect/vitest"
import { PaymentPolicy } from "@orchestrator/core"
import { fakePayPal, fakeStripe, testDatabases } from "@orchestrator/testing"
import { Duration, Effect } from "effect"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, type RawResponse, runJobs, serverLayer } from "./support/TestServer.js"

const logs: Array<string> = []
/** Every response this suite receives, to search for secrets at the end. */
const responses: Array<string> = []

const WEBHOOK_ID = "8PT597110X687430LFAKE"
const RETURN_URL = "https://shop.example/back"

/** The worker's poll of payments waiting for their payer, without waiting for its first point (real clock here). */
const followUpNow = Effect.flatMap(
  PaymentPolicy,
  (policy) => runJobs("follow-up-payments").pipe(Effect.provideService(PaymentPolicy, { ...policy, actionPollSchedule: [Duration.zero] }))
)

/** The worker's reconciliation, without waiting for an attempt to be old enough (real clock here). */
const reconcileNow = Effect.flatMap(
  PaymentPolicy,
  (policy) => runJobs("reconcile-payments").pipe(Effect.provideService(PaymentPolicy, { ...policy, reconcileSchedule: [Duration.zero] }))
)

for (const database of testDatabases()) {
  layer(serverLayer(database.layer, { logs }), { excludeTestServices: true, timeout: "120 seconds" })(
    `PayPal through the HTTP API, against a wire-level fake, on ${database.name}`,
    (it) => {
      const api = (baseUrl: string, secret: string) => (path: string, init: { method?: string; body?: unknown } = {}) =>
        raw(`${baseUrl}${path}`, {
          method: init.method ?? (init.body === undefined ? "GET" : "POST"),
          headers: json(secret, path === "/v1/payments" || path.endsWith("/refund") ? newKey() : undefined),
          ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
        }).pipe(Effect.tap((response: RawResponse) => Effect.sync(() => responses.push(response.text))))

      const wallet = (extra: Record<string, unknown> = {}) => ({
        amount: 1050,
        currency: "EUR",
        payment_method: { type: "paypal" },
        return_url: RETURN_URL,
        ...extra
      })

      /** The payer at PayPal's approval page (paying as `funding` says), then back through our return URL. */
      const payerApproves = (baseUrl: string, approvalUrl: string, funding = "ok") =>
        Effect.gen(function*() {
          const atPayPal = yield* raw(`${approvalUrl}?funding=${funding}`)
          const back = atPayPal.headers.get("location")!
          expect(back.startsWith(`${baseUrl}/v1/payments/`)).toBe(true)
          const returned = yield* raw(back)
          expect(returned.status).toBe(303)
          return new URL(returned.headers.get("location")!)
        })

      it.scoped("approval, manual capture, partial refund, a webhook settling a pending capture, a forged one refused, cards and wallets each to their PSP, a lost answer reconciled with one order", () =>
        Effect.gen(function*() {
          const paypal = yield* fakePayPal
          const stripe = yield* fakeStripe
          const { baseUrl, secret } = yield* merchant()
          const call = api(baseUrl, secret)
          const missing = yield* call("/v1/provider-connections", { body: { name: "paypal_x", type: "paypal", credentials: { client_id: "x" } } })
          expect([missing.status, missing.json.error.param]).toEqual([422, "credentials.client_secret"])
          const connection = yield* call("/v1/provider-connections", {
            body: {
              name: "paypal_eu",
              type: "paypal",
              credentials: { client_id: paypal.clientId, client_secret: paypal.clientSecret },
              base_url: paypal.url,
              settings: { webhook_id: WEBHOOK_ID, timeout_ms: 20_000 }
            }
          })
          expect([connection.status, connection.json.type]).toEqual([201, "paypal"])
          yield* call("/v1/provider-connections", {
            body: { name: "stripe_eu", type: "stripe", credentials: { secret_key: "sk_test_51PayPalSuite" }, base_url: stripe.url }
          })
          // Stripe by default; every rule, even one matching everything, names PayPal.
          yield* call("/v1/organization", { method: "PATCH", body: { default_provider: "stripe_eu", payments_routing: "rules" } })
          const walletRule = yield* call("/v1/routing-rules", { body: { priority: 1, conditions: { method: ["paypal"] }, action: { provider: "paypal_eu" } } })
          expect(walletRule.status).toBe(201)
          yield* call("/v1/routing-rules", { body: { priority: 2, conditions: {}, action: { provider: "paypal_eu" } } })

          // A PayPal payment: to the payer's approval, back, captured.
          const created = yield* call("/v1/payments", { body: wallet() })
          expect([created.status, created.json.status, created.json.provider, created.json.routing]).toEqual([
            201,
            "requires_action",
            "paypal_eu",
            { strategy: "rules", rule_id: walletRule.json.id }
          ])
          expect(created.json.payment_method).toEqual({ type: "paypal", token: null, brand: null, last4: null, country: null })
          expect(created.json.next_action).toEqual({ type: "redirect", url: `${paypal.url}/fake/3ds/approve/${created.json.provider_payment_id}` })
          const merchantPage = yield* payerApproves(baseUrl, created.json.next_action.url)
          expect(merchantPage.searchParams.get("payment_id")).toBe(created.json.id)
          const paid = (yield* call(`/v1/payments/${created.json.id}`)).json
          expect([paid.status, paid.amount_captured, paid.next_action]).toEqual(["succeeded", 1050, null])
          expect(paypal.ordersFor(created.json.attempts[0].id)).toBe(1)

          // A card goes to Stripe, passing over the catch-all rule; neither PSP takes the other's method.
          const card = yield* call("/v1/payments", { body: { amount: 1050, currency: "EUR", payment_method: { type: "card", token: "pm_card_visa" } } })
          expect([card.status, card.json.provider, card.json.status]).toEqual([201, "stripe_eu", "succeeded"])
          const cardToPayPal = yield* call("/v1/payments", {
            body: { amount: 1050, currency: "EUR", payment_method: { type: "card", token: "pm_card_visa" }, provider: "paypal_eu" }
          })
          expect([cardToPayPal.status, cardToPayPal.json.error.code]).toEqual([422, "provider_not_usable"])
          const walletToStripe = yield* call("/v1/payments", { body: wallet({ provider: "stripe_eu" }) })
          expect([walletToStripe.status, walletToStripe.json.error.code]).toEqual([422, "provider_not_usable"])
          const token = yield* call("/v1/payments", { body: wallet({ payment_method: { type: "paypal", token: "tok_visa" } }) })
          expect(token.status).toBe(400)

          // Manual capture of less, then a partial refund.
          const held = yield* call("/v1/payments", { body: wallet({ capture: false }) })
          yield* payerApproves(baseUrl, held.json.next_action.url)
          expect((yield* call(`/v1/payments/${held.json.id}`)).json.status).toBe("requires_capture")
          const captured = yield* call(`/v1/payments/${held.json.id}/capture`, { body: { amount: 600 } })
          expect([captured.status, captured.json.status, captured.json.amount_captured]).toEqual([200, "succeeded", 600])
          const refund = yield* call(`/v1/payments/${held.json.id}/refund`, { body: { amount: 200 } })
          expect([refund.status, refund.json.status]).toEqual([201, "succeeded"])
          expect((yield* call(`/v1/payments/${held.json.id}`)).json).toMatchObject({ amount_captured: 600, amount_refunded: 200 })

          // An e-check: the capture is PENDING when the payer is back; PayPal's webhook settles it.
          const slow = yield* call("/v1/payments", { body: wallet() })
          yield* payerApproves(baseUrl, slow.json.next_action.url, "pending")
          // Waiting on PayPal now, not on the payer: nothing left to open.
          const waiting = (yield* call(`/v1/payments/${slow.json.id}`)).json
          expect([waiting.status, waiting.next_action, waiting.attempts.map((attempt: any) => attempt.status)]).toEqual(["processing", null, ["pending"]])
          const delivery = paypal.webhook(WEBHOOK_ID, "PAYMENT.CAPTURE.COMPLETED", paypal.settleCapture(slow.json.provider_payment_id, "COMPLETED"))
          const forged = yield* raw(`${baseUrl}/v1/provider-webhooks/${connection.json.id}`, {
            method: "POST",
            headers: { ...delivery.headers, "paypal-transmission-sig": "Zm9yZ2VkIHNpZ25hdHVyZQ==" },
            body: delivery.body
          })
          expect([forged.status, forged.json.error.code]).toEqual([400, "webhook_unverified"])
          const delivered = yield* raw(`${baseUrl}/v1/provider-webhooks/${connection.json.id}`, {
            method: "POST",
            headers: delivery.headers,
            body: delivery.body
          })
          expect([delivered.status, delivered.json]).toEqual([200, { received: 1, duplicates: 0 }])
          yield* runJobs("apply-provider-events")
          expect((yield* call(`/v1/payments/${slow.json.id}`)).json).toMatchObject({ status: "succeeded", amount_captured: 1050 })

          // PayPal creates the order, then the connection drops: reconciliation sends the same request id, one order.
          paypal.injectFault("reset")
          const lost = yield* call("/v1/payments", { body: wallet() })
          expect([lost.status, lost.json.status, lost.json.attempts[0].status]).toEqual([201, "processing", "unknown"])
          yield* reconcileNow
          const recovered = (yield* call(`/v1/payments/${lost.json.id}`)).json
          expect([recovered.status, recovered.attempts.length]).toEqual(["requires_action", 1])
          expect(paypal.ordersFor(lost.json.attempts[0].id)).toBe(1)
          yield* payerApproves(baseUrl, recovered.next_action.url)
          expect((yield* call(`/v1/payments/${lost.json.id}`)).json.status).toBe("succeeded")

          // No secret in any answer or log line.
          for (const text of [...responses, ...logs]) expect(text).not.toContain(paypal.clientSecret)
        }))

      it.scoped("a payer who approves and closes the tab is paid by the worker's poll; a capture PENDING waits in processing until the poll or a DENIED webhook settles it", () =>
        Effect.gen(function*() {
          const paypal = yield* fakePayPal
          const { baseUrl, secret } = yield* merchant()
          const call = api(baseUrl, secret)
          const connection = yield* call("/v1/provider-connections", {
            body: {
              name: "paypal_eu",
              type: "paypal",
              credentials: { client_id: paypal.clientId, client_secret: paypal.clientSecret },
              base_url: paypal.url,
              settings: { webhook_id: WEBHOOK_ID }
            }
          })
          expect(connection.status).toBe(201)
          const captures = () => paypal.exchanges.filter((exchange) => exchange.method === "POST" && exchange.url.endsWith("/capture")).length

          // Approved at PayPal, never back: the poll of payments waiting for their payer completes the order, once.
          const abandoned = yield* call("/v1/payments", { body: wallet({ provider: "paypal_eu" }) })
          expect(abandoned.json.status).toBe("requires_action")
          paypal.approve(abandoned.json.provider_payment_id)
          yield* followUpNow
          const paid = (yield* call(`/v1/payments/${abandoned.json.id}`)).json
          expect([paid.status, paid.amount_captured, paid.next_action]).toEqual(["succeeded", 1050, null])
          expect([paypal.ordersFor(abandoned.json.attempts[0].id), captures()]).toEqual([1, 1])
          yield* followUpNow
          expect(captures()).toBe(1)

          // Approved with an e-check, never back: the capture is PENDING, so the payment waits on PayPal.
          const echeck = yield* call("/v1/payments", { body: wallet({ provider: "paypal_eu" }) })
          paypal.approve(echeck.json.provider_payment_id, "pending")
          yield* followUpNow
          const pending = (yield* call(`/v1/payments/${echeck.json.id}`)).json
          expect([pending.status, pending.next_action]).toEqual(["processing", null])
          // PayPal declines it later: its webhook settles the payment as failed.
          const denied = paypal.webhook(WEBHOOK_ID, "PAYMENT.CAPTURE.DENIED", paypal.settleCapture(echeck.json.provider_payment_id, "DECLINED"))
          const told = yield* raw(`${baseUrl}/v1/provider-webhooks/${connection.json.id}`, { method: "POST", headers: denied.headers, body: denied.body })
          expect(told.status).toBe(200)
          yield* runJobs("apply-provider-events")
          const failed = (yield* call(`/v1/payments/${echeck.json.id}`)).json
          expect([failed.status, failed.failure.code, failed.next_action]).toEqual(["failed", "payment_method_declined", null])

          // Another PENDING capture, completed at PayPal with no webhook (none configured): the worker's reconciliation finds it.
          const polled = yield* call("/v1/payments", { body: wallet({ provider: "paypal_eu" }) })
          paypal.approve(polled.json.provider_payment_id, "pending")
          yield* followUpNow
          expect((yield* call(`/v1/payments/${polled.json.id}`)).json.status).toBe("processing")
          paypal.settleCapture(polled.json.provider_payment_id, "COMPLETED")
          yield* reconcileNow
          expect((yield* call(`/v1/payments/${polled.json.id}`)).json).toMatchObject({ status: "succeeded", amount_captured: 1050, next_action: null })
          expect(paypal.ordersFor(polled.json.attempts[0].id)).toBe(1)
        }))
    }
  )
}
