import { expect, layer } from "@effect/vitest"
import { fakeMollie, testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { apiCaller } from "./support/Fixtures.js"
import { merchant, raw, runJobs, serverLayer } from "./support/TestServer.js"

const API_KEY = "test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM"

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `Mollie chargebacks through the HTTP API, against a wire-level fake, on ${database.name}`,
    (it) => {
      it.scoped("a payment's webhook reads its chargebacks: one dispute each, lost with its funds withdrawn, won when reversed; repeats change nothing; no answer is taken", () =>
        Effect.gen(function*() {
          const mollie = yield* fakeMollie
          const { baseUrl, secret } = yield* merchant()
          const call = apiCaller(baseUrl, secret)
          const connection = yield* call("/v1/provider-connections", {
            name: "mollie_eu",
            type: "mollie",
            credentials: { api_key: API_KEY },
            base_url: mollie.url
          })
          expect(connection.status).toBe(201)
          const webhook = (paymentId: string) =>
            raw(`${baseUrl}/v1/provider-webhooks/${connection.json.id}`, {
              method: "POST",
              headers: { "content-type": "application/x-www-form-urlencoded" },
              body: mollie.webhookBody(paymentId)
            })
          const paid = yield* call("/v1/payments", {
            amount: 1050,
            currency: "EUR",
            payment_method: { type: "card", token: "tkn_paid" },
            return_url: "https://shop.example/back",
            provider: "mollie_eu"
          })
          expect(paid.json.status).toBe("succeeded")
          const chargeback = mollie.chargeBack(paid.json.provider_payment_id, { at: "2026-11-20T10:00:00+00:00" })
          expect((yield* webhook(paid.json.provider_payment_id)).json).toMatchObject({ received: 2, duplicates: 0 })
          // Mollie calls again (the same state): stored once.
          expect((yield* webhook(paid.json.provider_payment_id)).json).toEqual({ received: 0, duplicates: 2 })
          yield* runJobs("apply-provider-events")
          const listed = (yield* call(`/v1/disputes?payment_id=${paid.json.id}`)).json.data
          expect(listed).toHaveLength(1)
          expect(listed[0]).toMatchObject({
            provider: "mollie_eu",
            provider_dispute_id: chargeback.id,
            status: "lost",
            stage: "chargeback",
            funds: "withdrawn",
            amount: 1050,
            evidence_due_by: null
          })
          expect((yield* call(`/v1/payments/${paid.json.id}`)).json).toMatchObject({ amount_disputed: 1050, disputed: true })
          // A chargeback is the bank's decision already: closed, it takes no evidence (and Mollie none by API).
          const evidence = yield* call(`/v1/disputes/${listed[0].id}/evidence`, { product_description: "Wool socks" })
          expect([evidence.status, evidence.json.error.code]).toEqual([409, "dispute_closed"])

          mollie.reverseChargeback(chargeback.id, "2026-11-25T10:00:00+00:00")
          expect((yield* webhook(paid.json.provider_payment_id)).json).toMatchObject({ received: 1 })
          yield* runJobs("apply-provider-events")
          expect((yield* call(`/v1/disputes/${listed[0].id}`)).json).toMatchObject({ status: "won", funds: "reinstated" })
          expect((yield* call(`/v1/payments/${paid.json.id}`)).json).toMatchObject({ amount_disputed: 0 })
        }))
    }
  )
}
