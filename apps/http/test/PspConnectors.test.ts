import { expect, layer } from "@effect/vitest"
import { PaymentPolicy } from "@orchestrator/core"
import { fakeAdyen, fakeStripe, testDatabases } from "@orchestrator/testing"
import { Duration, Effect } from "effect"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, type RawResponse, runJobs, serverLayer } from "./support/TestServer.js"

const logs: Array<string> = []
/** Every response this suite receives, to search for secrets at the end. */
const responses: Array<string> = []

const STRIPE_KEY = "sk_test_TOPSECRETstripe1"
const STRIPE_WEBHOOK_SECRET = "whsec_TOPSECRETstripe2"
const ADYEN_KEY = "AQE_TOPSECRETadyen1"
const ADYEN_HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056"
const RETURN_URL = "https://shop.example/back"

/** The worker's reconciliation, without waiting for an attempt to be old enough (real clock here). */
const reconcileNow = Effect.flatMap(
  PaymentPolicy,
  (policy) => runJobs("reconcile-payments").pipe(Effect.provideService(PaymentPolicy, { ...policy, reconcileSchedule: [Duration.zero] }))
)

for (const database of testDatabases()) {
  layer(serverLayer(database.layer, { logs }), { excludeTestServices: true, timeout: "120 seconds" })(
    `Stripe and Adyen connectors through the HTTP API, against wire-level fakes, on ${database.name}`,
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
        ...extra
      })

      /** Follows a customer through the PSP's page and back to our return URL, as a browser would. */
      const customerCompletes = (baseUrl: string, challengeUrl: string) =>
        Effect.gen(function*() {
          const atPsp = yield* raw(challengeUrl)
          const back = atPsp.headers.get("location")!
          expect(back.startsWith(`${baseUrl}/v1/payments/`)).toBe(true)
          const returned = yield* raw(back)
          expect(returned.status).toBe(303)
          return new URL(returned.headers.get("location")!)
        })

      it.scoped("Stripe: success, decline (402), 3DS redirect and return, partial capture, refunds settled by webhook, a lost answer reconciled without a second charge", () =>
        Effect.gen(function*() {
          const stripe = yield* fakeStripe
          const { baseUrl, secret } = yield* merchant()
          const call = api(baseUrl, secret)
          const connection = yield* call("/v1/provider-connections", {
            body: {
              name: "stripe_eu",
              type: "stripe",
              credentials: { secret_key: STRIPE_KEY },
              webhook_secret: STRIPE_WEBHOOK_SECRET,
              base_url: stripe.url,
              settings: { timeout_ms: 20_000 }
            }
          })
          expect([connection.status, connection.json.type, connection.json.base_url]).toEqual([201, "stripe", stripe.url])
          const missingKey = yield* call("/v1/provider-connections", { body: { name: "stripe_x", type: "stripe" } })
          expect([missingKey.status, missingKey.json.error.param]).toEqual([422, "credentials.secret_key"])
          const badSettings = yield* call("/v1/provider-connections", {
            body: { name: "stripe_y", type: "stripe", credentials: { secret_key: "sk_test_1" }, settings: { timeout_ms: 5 } }
          })
          expect([badSettings.status, badSettings.json.error.param]).toEqual([422, "settings.timeout_ms"])

          const paid = yield* call("/v1/payments", { body: card("pm_card_visa", { provider: "stripe_eu" }) })
          expect(paid.status).toBe(201)
          expect(paid.json).toMatchObject({
            status: "succeeded",
            provider: "stripe_eu",
            amount_captured: 1050,
            provider_payment_id: expect.stringMatching(/^pi_/),
            payment_method: { brand: "visa", last4: "4242", country: "US" }
          })
          expect(stripe.chargesFor(paid.json.attempts[0].id)).toBe(1)

          const declined = yield* call("/v1/payments", { body: card("pm_card_chargeDeclinedInsufficientFunds", { provider: "stripe_eu" }) })
          expect([declined.status, declined.json.error.code, declined.json.error.payment.status]).toEqual([402, "insufficient_funds", "failed"])
          expect(declined.json.error.payment.attempts).toHaveLength(1)

          const challenged = yield* call("/v1/payments", { body: card("pm_card_threeDSecure2Required", { provider: "stripe_eu" }) })
          expect([challenged.status, challenged.json.status]).toEqual([201, "requires_action"])
          expect(challenged.json.next_action.url).toContain(`${stripe.url}/fake/3ds/`)
          const merchantPage = yield* customerCompletes(baseUrl, challenged.json.next_action.url)
          expect(merchantPage.searchParams.get("payment_id")).toBe(challenged.json.id)
          expect((yield* call(`/v1/payments/${challenged.json.id}`)).json.status).toBe("succeeded")

          const held = yield* call("/v1/payments", { body: card("pm_card_visa", { provider: "stripe_eu", capture: false }) })
          expect(held.json.status).toBe("requires_capture")
          const captured = yield* call(`/v1/payments/${held.json.id}/capture`, { body: { amount: 600 } })
          expect([captured.status, captured.json.status, captured.json.amount_captured]).toEqual([200, "succeeded", 600])

          const partial = yield* call(`/v1/payments/${held.json.id}/refund`, { body: { amount: 200 } })
          expect([partial.status, partial.json.status, partial.json.provider_refund_id]).toEqual([201, "succeeded", expect.stringMatching(/^re_/)])
          stripe.pendingRefunds = true
          const later = yield* call(`/v1/payments/${held.json.id}/refund`, { body: { amount: 100 } })
          expect(later.json.status).toBe("pending")
          stripe.settleRefund(later.json.provider_refund_id, "succeeded")
          const event = stripe.signedEvent(
            STRIPE_WEBHOOK_SECRET,
            "charge.refund.updated",
            stripe.refundObject(later.json.provider_refund_id),
            Math.floor(Date.now() / 1000)
          )
          const forged = yield* raw(`${baseUrl}/v1/provider-webhooks/${connection.json.id}`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              "stripe-signature": event.signature.replace(/v1=(.)/, (_, first: string) => `v1=${first === "0" ? "1" : "0"}`)
            },
            body: event.body
          })
          expect([forged.status, forged.json.error.code]).toEqual([400, "webhook_unverified"])
          const delivered = yield* raw(`${baseUrl}/v1/provider-webhooks/${connection.json.id}`, {
            method: "POST",
            headers: { "content-type": "application/json", "stripe-signature": event.signature },
            body: event.body
          })
          expect([delivered.status, delivered.json]).toEqual([200, { received: 1, duplicates: 0 }])
          yield* runJobs("apply-provider-events")
          expect((yield* call(`/v1/refunds/${later.json.id}`)).json.status).toBe("succeeded")
          expect((yield* call(`/v1/payments/${held.json.id}`)).json.amount_refunded).toBe(300)

          // Stripe charges, then the connection drops before the answer: the payment stays processing.
          stripe.injectFault("reset")
          const lost = yield* call("/v1/payments", { body: card("pm_card_visa", { provider: "stripe_eu" }) })
          expect([lost.status, lost.json.status, lost.json.attempts[0].status, lost.json.attempts[0].error_code])
            .toEqual([201, "processing", "unknown", "outcome_unknown"])
          yield* reconcileNow
          const settled = (yield* call(`/v1/payments/${lost.json.id}`)).json
          expect([settled.status, settled.amount_captured, settled.attempts.length]).toEqual(["succeeded", 1050, 1])
          expect(stripe.chargesFor(lost.json.attempts[0].id)).toBe(1)
        }))

      it.scoped("Adyen: success, refusal (402), 3DS with redirectResult through our return URL, capture and refund settled by notification, answered [accepted]", () =>
        Effect.gen(function*() {
          const adyen = yield* fakeAdyen
          const { baseUrl, secret } = yield* merchant()
          const call = api(baseUrl, secret)
          const connection = yield* call("/v1/provider-connections", {
            body: {
              name: "adyen_eu",
              type: "adyen",
              credentials: { api_key: ADYEN_KEY, merchant_account: adyen.merchantAccount },
              webhook_secret: ADYEN_HMAC_KEY,
              base_url: adyen.url
            }
          })
          expect(connection.status).toBe(201)
          const missing = yield* call("/v1/provider-connections", { body: { name: "adyen_x", type: "adyen", credentials: { api_key: "k" } } })
          expect([missing.status, missing.json.error.param]).toEqual([422, "credentials.merchant_account"])

          const paid = yield* call("/v1/payments", { body: card("visa_ok", { provider: "adyen_eu" }) })
          expect([paid.status, paid.json.status, paid.json.amount_captured]).toEqual([201, "succeeded", 1050])
          expect(paid.json.provider_payment_id).toMatch(/^[A-Z0-9]{16}$/)

          const refused = yield* call("/v1/payments", { body: card("visa_no_funds", { provider: "adyen_eu" }) })
          expect([refused.status, refused.json.error.code]).toEqual([402, "insufficient_funds"])

          const challenged = yield* call("/v1/payments", { body: card("visa_3ds", { provider: "adyen_eu" }) })
          expect(challenged.json.status).toBe("requires_action")
          yield* customerCompletes(baseUrl, challenged.json.next_action.url)
          expect((yield* call(`/v1/payments/${challenged.json.id}`)).json.status).toBe("succeeded")
          const detailsCall = adyen.exchanges.find((exchange) => exchange.url === "/v71/payments/details")!
          expect(JSON.parse(detailsCall.body).details.redirectResult).toMatch(/^rr_/)

          const notify = (body: string) =>
            raw(`${baseUrl}/v1/provider-webhooks/${connection.json.id}`, { method: "POST", headers: { "content-type": "application/json" }, body })

          const held = yield* call("/v1/payments", { body: card("visa_ok", { provider: "adyen_eu", capture: false }) })
          expect(held.json.status).toBe("requires_capture")
          const capturing = yield* call(`/v1/payments/${held.json.id}/capture`, { body: { amount: 600 } })
          // Adyen answers `received`: the capture is settled by its notification.
          expect([capturing.status, capturing.json.status]).toEqual([200, "requires_capture"])
          const capture = adyen.modifications.find((each) => each.kind === "capture")!
          const body = adyen.notification(ADYEN_HMAC_KEY, [adyen.settlement(capture, "CAPTURE", true)])
          const forged = yield* notify(body.replace("\"value\":600", "\"value\":1050"))
          expect([forged.status, forged.json.error.code]).toEqual([400, "webhook_unverified"])
          const accepted = yield* notify(body)
          expect([accepted.status, accepted.text, accepted.headers.get("content-type")]).toEqual([200, "[accepted]", expect.stringContaining("text/plain")])
          expect((yield* notify(body)).text).toBe("[accepted]")
          yield* runJobs("apply-provider-events")
          const captured = (yield* call(`/v1/payments/${held.json.id}`)).json
          expect([captured.status, captured.amount_captured]).toEqual(["succeeded", 600])

          const refund = yield* call(`/v1/payments/${held.json.id}/refund`, { body: { amount: 250 } })
          expect([refund.status, refund.json.status]).toEqual([201, "pending"])
          const modification = adyen.modifications.find((each) => each.kind === "refund")!
          expect(modification.reference).toBe(refund.json.id)
          yield* notify(adyen.notification(ADYEN_HMAC_KEY, [adyen.settlement(modification, "REFUND", true)]))
          yield* runJobs("apply-provider-events")
          expect((yield* call(`/v1/refunds/${refund.json.id}`)).json.status).toBe("succeeded")
          const failing = yield* call(`/v1/payments/${held.json.id}/refund`, { body: { amount: 100 } })
          const failedModification = adyen.modifications.filter((each) => each.kind === "refund").at(-1)!
          yield* notify(
            adyen.notification(ADYEN_HMAC_KEY, [{ ...adyen.settlement(failedModification, "REFUND_FAILED", true), reason: "Insufficient balance" }])
          )
          yield* runJobs("apply-provider-events")
          expect((yield* call(`/v1/refunds/${failing.json.id}`)).json).toMatchObject({ status: "failed", failure: { code: "refund_failed" } })
          expect((yield* call(`/v1/payments/${held.json.id}`)).json.amount_refunded).toBe(250)

          // A payment whose answer was lost is sent again under its idempotency key: Adyen answers it once.
          adyen.injectFault("reset")
          const lost = yield* call("/v1/payments", { body: card("visa_ok", { provider: "adyen_eu" }) })
          expect(lost.json.status).toBe("processing")
          yield* reconcileNow
          expect((yield* call(`/v1/payments/${lost.json.id}`)).json.status).toBe("succeeded")
          expect(adyen.paymentsFor(lost.json.attempts[0].id)).toBe(1)
        }))

      it.effect("no response or log line shows a PSP credential or webhook secret", () =>
        Effect.sync(() => {
          expect(responses.length).toBeGreaterThan(20)
          for (const secret of ["TOPSECRETstripe1", "TOPSECRETstripe2", "TOPSECRETadyen1", ADYEN_HMAC_KEY]) {
            for (const response of responses) expect(response).not.toContain(secret)
            for (const line of logs) expect(line).not.toContain(secret)
          }
        }))
    }
  )
}
