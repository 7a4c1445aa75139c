import { expect, layer } from "@effect/vitest"
import { failureMessage, PaymentsRepository } from "@orchestrator/core"
import { fakeAdyen, fakeStripe, testDatabases } from "@orchestrator/testing"
import { Effect, Option } from "effect"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, type RawResponse, serverLayer } from "./support/TestServer.js"

/** What a PSP (or whatever answers at a base_url) might say: never for a merchant's eyes. */
const SECRET = "<html>internal secret: db=10.0.0.7 password=hunter2</html>"

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "60 seconds" })(
    `a PSP's own words never reach a merchant, on ${database.name}`,
    (it) => {
      /** Every response of a test, to search for the PSP's text at the end. */
      const session = (baseUrl: string, secret: string, responses: Array<string>) => (path: string, body?: unknown) =>
        raw(`${baseUrl}${path}`, {
          method: body === undefined ? "GET" : "POST",
          headers: json(secret, body === undefined ? undefined : newKey()),
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        }).pipe(Effect.tap((response: RawResponse) => Effect.sync(() => responses.push(response.text))))

      const providerMessageOf = (tenant: { organizationId: string; livemode: boolean }, attemptId: string) =>
        Effect.flatMap(PaymentsRepository, (repository) => repository.providerMessageOf(tenant, attemptId))

      it.scoped("Stripe: a decline, an outage, a refused capture, cancel and refund answer our code and message; Stripe's text stays on the attempt", () =>
        Effect.gen(function*() {
          const stripe = yield* fakeStripe
          const { baseUrl, secret, tenant } = yield* merchant()
          const responses: Array<string> = []
          const call = session(baseUrl, secret, responses)
          const connection = yield* call("/v1/provider-connections", {
            name: "stripe_words",
            type: "stripe",
            base_url: stripe.url,
            credentials: { secret_key: "sk_test_words" }
          })
          expect(connection.status).toBe(201)
          const pay = (extra: Record<string, unknown> = {}) =>
            call("/v1/payments", {
              amount: 1200,
              currency: "EUR",
              payment_method: { type: "card", token: "pm_card_visa" },
              provider: "stripe_words",
              ...extra
            })

          // A decline: 402 with our message for the code, inside the payment too.
          stripe.injectFault({ status: 402, type: "card_error", code: "card_declined", message: SECRET })
          const declined = yield* pay()
          expect(declined.status).toBe(402)
          expect(declined.json.error).toMatchObject({ code: "card_declined", message: failureMessage("card_declined") })
          expect(declined.json.error.payment.failure).toEqual({ code: "card_declined", message: "The card was declined." })
          const declinedAttempt = declined.json.error.payment.attempts[0].id
          expect(Option.getOrThrow(yield* providerMessageOf(tenant, declinedAttempt))).toBe(SECRET)

          // Stripe's own error (HTTP 500): nothing was processed, the retry succeeds; the first
          // attempt keeps what Stripe said.
          stripe.injectFault({ status: 500, type: "api_error", message: SECRET })
          const retried = yield* pay()
          expect(retried.status).toBe(201)
          expect(retried.json.attempts.map((attempt: any) => [attempt.status, attempt.error_code]))
            .toEqual([["failed", "provider_unavailable"], ["succeeded", null]])
          const outage = Option.getOrThrow(yield* providerMessageOf(tenant, retried.json.attempts[0].id))
          expect(outage).toContain("HTTP 500")
          expect(outage).toContain(SECRET)

          // A capture Stripe refuses.
          const authorized = yield* pay({ capture: false })
          expect(authorized.json.status).toBe("requires_capture")
          stripe.injectFault({ status: 400, type: "invalid_request_error", code: "charge_expired_for_capture", message: SECRET })
          const capture = yield* call(`/v1/payments/${authorized.json.id}/capture`, {})
          expect(capture.status).toBe(402)
          expect(capture.json.error).toMatchObject({ code: "authorization_expired", message: failureMessage("authorization_expired") })
          expect(Option.getOrThrow(yield* providerMessageOf(tenant, authorized.json.attempts[0].id))).toBe(SECRET)

          // A cancel Stripe refuses.
          stripe.injectFault({ status: 400, type: "invalid_request_error", code: "payment_intent_unexpected_state", message: SECRET })
          const cancel = yield* call(`/v1/payments/${authorized.json.id}/cancel`, {})
          expect(cancel.status).toBe(402)
          expect(cancel.json.error).toMatchObject({
            code: "payment_intent_unexpected_state",
            message: failureMessage("payment_intent_unexpected_state")
          })

          // A refund Stripe refuses.
          stripe.injectFault({ status: 400, type: "invalid_request_error", code: "charge_already_refunded", message: SECRET })
          const refund = yield* call(`/v1/payments/${retried.json.id}/refund`, { amount: 100 })
          expect(refund.status).toBe(402)
          expect(refund.json.error).toMatchObject({ code: "charge_already_refunded", message: failureMessage("charge_already_refunded") })

          yield* call(`/v1/payments/${declined.json.error.payment.id}`)
          yield* call(`/v1/payments?limit=100`)
          yield* call(`/v1/refunds?limit=100`)
          expect(responses.filter((text) => text.includes("internal secret"))).toEqual([])
        }))

      it.scoped("Adyen: a refusal of the request answers our code and message; Adyen's text stays on the attempt", () =>
        Effect.gen(function*() {
          const adyen = yield* fakeAdyen
          const { baseUrl, secret, tenant } = yield* merchant()
          const responses: Array<string> = []
          const call = session(baseUrl, secret, responses)
          const connection = yield* call("/v1/provider-connections", {
            name: "adyen_words",
            type: "adyen",
            base_url: adyen.url,
            credentials: { api_key: "AQE_words", merchant_account: "FakeMerchantECOM" }
          })
          expect(connection.status).toBe(201)

          adyen.injectFault({ status: 422, errorCode: "000", message: SECRET })
          const refused = yield* call("/v1/payments", {
            amount: 1200,
            currency: "EUR",
            payment_method: { type: "card", token: "visa_ok" },
            provider: "adyen_words"
          })
          expect(refused.status).toBe(402)
          expect(refused.json.error).toMatchObject({ code: "invalid_request", message: failureMessage("invalid_request") })
          const attempt = refused.json.error.payment.attempts[0].id
          expect(Option.getOrThrow(yield* providerMessageOf(tenant, attempt))).toContain(SECRET)

          yield* call(`/v1/payments/${refused.json.error.payment.id}`)
          expect(responses.filter((text) => text.includes("internal secret"))).toEqual([])
        }))
    }
  )
}
