import { expect, layer } from "@effect/vitest"
import { fakeAdyen, testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, runJobs, serverLayer } from "./support/TestServer.js"

const ADYEN_HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056"

/**
 * Adyen's deduplication (same pspReference and eventCode) counts only news the service took: a
 * signed notification refused for saying what cannot be true of the payment does not block the
 * genuine one that follows it.
 */
for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `Adyen notifications refused for their data, on ${database.name}`,
    (it) => {
      it.scoped("a CAPTURE refused for its amount does not make the genuine CAPTURE a duplicate", () =>
        Effect.gen(function*() {
          const adyen = yield* fakeAdyen
          const { baseUrl, secret } = yield* merchant()
          const call = (path: string, body?: unknown) =>
            raw(`${baseUrl}${path}`, {
              method: body === undefined ? "GET" : "POST",
              headers: json(secret, body === undefined ? undefined : newKey()),
              ...(body === undefined ? {} : { body: JSON.stringify(body) })
            })
          const connection = yield* call("/v1/provider-connections", {
            name: "adyen_eu",
            type: "adyen",
            credentials: { api_key: "AQE_key", merchant_account: adyen.merchantAccount },
            webhook_secret: ADYEN_HMAC_KEY,
            base_url: adyen.url
          })
          expect(connection.status).toBe(201)
          const notify = (body: string) =>
            raw(`${baseUrl}/v1/provider-webhooks/${connection.json.id}`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body
            })

          const held = yield* call("/v1/payments", {
            amount: 1050,
            currency: "EUR",
            payment_method: { type: "card", token: "visa_ok" },
            provider: "adyen_eu",
            capture: false
          })
          expect(held.json.status).toBe("requires_capture")
          const capturing = yield* call(`/v1/payments/${held.json.id}/capture`, { amount: 600 })
          expect([capturing.status, capturing.json.status]).toEqual([200, "requires_capture"])
          const capture = adyen.modifications.find((each) => each.kind === "capture")!
          const genuine = adyen.settlement(capture, "CAPTURE", true)

          // Correctly signed, but capturing more than the payment: refused when applied.
          const tooMuch = yield* notify(adyen.notification(ADYEN_HMAC_KEY, [{ ...genuine, amount: { value: 2000, currency: "EUR" } }]))
          expect([tooMuch.status, tooMuch.text]).toEqual([200, "[accepted]"])
          yield* runJobs("apply-provider-events")
          const untouched = (yield* call(`/v1/payments/${held.json.id}`)).json
          expect([untouched.status, untouched.amount_captured]).toEqual(["requires_capture", 0])

          // The genuine notification, same pspReference and eventCode: applied, not dropped as a repeat.
          expect((yield* notify(adyen.notification(ADYEN_HMAC_KEY, [genuine]))).text).toBe("[accepted]")
          yield* runJobs("apply-provider-events")
          const captured = (yield* call(`/v1/payments/${held.json.id}`)).json
          expect([captured.status, captured.amount_captured]).toEqual(["succeeded", 600])

          // News that was applied still counts as a duplicate: its repeat changes nothing.
          expect((yield* notify(adyen.notification(ADYEN_HMAC_KEY, [genuine]))).text).toBe("[accepted]")
          yield* runJobs("apply-provider-events")
          const events = (yield* call(`/v1/events?type=payment.succeeded`)).json.data
            .filter((event: any) => event.data.object.id === held.json.id)
          expect(events).toHaveLength(1)
        }))
    }
  )
}
