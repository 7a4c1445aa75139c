import { expect, layer } from "@effect/vitest"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { createHmac } from "node:crypto"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { merchant, raw, runJobs, serverLayer } from "./support/TestServer.js"

/**
 * A PSP speaking Adyen's protocol that authorises every payment under `pspReference`, whatever it is.
 * Closed with the test's scope.
 */
const hostileAdyen = (pspReference: string) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<{ url: string; server: http.Server; calls: () => number }>((resolve) => {
        let calls = 0
        const server = http.createServer((request, response) => {
          request.resume()
          request.on("end", () => {
            calls++
            response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ pspReference, resultCode: "Authorised" }))
          })
        })
        server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, calls: () => calls }))
      })
    ),
    ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
  )

const sign = (secret: string, body: string) => {
  const t = Math.floor(Date.now() / 1000)
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`
}

const [database] = testDatabases()

layer(serverLayer(database!.layer), { excludeTestServices: true, timeout: "120 seconds" })("PSP ids are checked before they are stored or shown", (it) => {
  for (
    const [what, id] of [
      ["4 000 characters long", "8".repeat(4000)],
      ["holding a control character", "8835511210681414\u0007"],
      ["holding a space", "8835 5112 1068 1414"]
    ] as const
  ) {
    it.scoped(`a pspReference ${what} is an unreadable answer: the payment waits in processing for reconciliation, the id is nowhere`, () =>
      Effect.gen(function*() {
        const adyen = yield* hostileAdyen(id)
        const { baseUrl, secret } = yield* merchant()
        const connection = yield* raw(`${baseUrl}/v1/provider-connections`, {
          method: "POST",
          headers: json(secret),
          body: JSON.stringify({
            name: "adyen_eu",
            type: "adyen",
            credentials: { api_key: "AQEhostileKey", merchant_account: "ShopECOM" },
            base_url: adyen.url
          })
        })
        expect(connection.status).toBe(201)
        const paid = yield* raw(`${baseUrl}/v1/payments`, {
          method: "POST",
          headers: json(secret, newKey()),
          body: JSON.stringify(paymentWith("visa_ok", { provider: "adyen_eu" }))
        })
        expect(adyen.calls()).toBe(1)
        expect([paid.status, paid.json.status, paid.json.provider_payment_id]).toEqual([201, "processing", null])
        expect(paid.json.attempts.map((attempt: { status: string; provider_payment_id: string | null }) => [attempt.status, attempt.provider_payment_id]))
          .toEqual([["unknown", null]])
        const read = yield* raw(`${baseUrl}/v1/payments/${paid.json.id}`, { headers: json(secret) })
        const events = yield* raw(`${baseUrl}/v1/events?limit=100`, { headers: json(secret) })
        for (const text of [paid.text, read.text, events.text]) expect(text).not.toContain(JSON.stringify(id).slice(1, -1))
      }))
  }

  it.effect("a signed webhook naming a PSP id that is not one is refused, and nothing of it is stored or applied", () =>
    Effect.gen(function*() {
      const { baseUrl, secret } = yield* merchant()
      const connection = yield* raw(`${baseUrl}/v1/provider-connections`, {
        method: "POST",
        headers: json(secret),
        body: JSON.stringify({ name: "psp_ids", type: "sandbox", webhook_secret: "whsec_psp_ids_secret", settings: { async_refunds: false } })
      })
      expect(connection.status).toBe(201)
      const paid = yield* raw(`${baseUrl}/v1/payments`, {
        method: "POST",
        headers: json(secret, newKey()),
        body: JSON.stringify(paymentWith("tok_visa", { provider: "psp_ids", capture: false }))
      })
      expect(paid.json.status).toBe("requires_capture")
      const longId = `ch_${"x".repeat(1000)}`
      const body = JSON.stringify({
        id: "evt_psp_ids_1",
        type: "charge.updated",
        created: Math.floor(Date.now() / 1000),
        data: {
          charge: {
            id: longId,
            reference: paid.json.attempts[0].id,
            merchant_reference: paid.json.id,
            amount: 1050,
            currency: "EUR",
            token: "tok_visa",
            capture: true,
            status: "succeeded",
            amount_captured: 1050,
            failure_code: null,
            failure_message: null
          }
        }
      })
      const refused = yield* raw(`${baseUrl}/v1/provider-webhooks/${connection.json.id}`, {
        method: "POST",
        headers: { "content-type": "application/json", "service-signature": sign("whsec_psp_ids_secret", body) },
        body
      })
      expect([refused.status, refused.json.error.code]).toEqual([400, "webhook_unverified"])
      expect(refused.text).not.toContain(longId)
      yield* runJobs("apply-provider-events")
      const after = (yield* raw(`${baseUrl}/v1/payments/${paid.json.id}`, { headers: json(secret) })).json
      expect([after.status, after.provider_payment_id]).toEqual(["requires_capture", paid.json.provider_payment_id])

      // A reference that is no id of ours (another system's order text) names nothing: the event is
      // taken by the PSP's own id, which is one, and applied to the payment that id is.
      const byPspId = body.replace(JSON.stringify(longId), JSON.stringify(paid.json.provider_payment_id))
        .replace(JSON.stringify(paid.json.attempts[0].id), JSON.stringify("Order 42 (another shop system)"))
        .replace("evt_psp_ids_1", "evt_psp_ids_2")
      const accepted = yield* raw(`${baseUrl}/v1/provider-webhooks/${connection.json.id}`, {
        method: "POST",
        headers: { "content-type": "application/json", "service-signature": sign("whsec_psp_ids_secret", byPspId) },
        body: byPspId
      })
      expect([accepted.status, accepted.json]).toEqual([200, { received: 1, duplicates: 0 }])
      yield* runJobs("apply-provider-events")
      const captured = (yield* raw(`${baseUrl}/v1/payments/${paid.json.id}`, { headers: json(secret) })).json
      expect([captured.status, captured.amount_captured]).toEqual(["succeeded", 1050])
    }))
})
