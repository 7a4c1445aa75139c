import { expect, layer } from "@effect/vitest"
import { IdempotencyKeysRepository } from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing"
import { DateTime, Effect, Option } from "effect"
import { createHmac } from "node:crypto"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { startReceiver } from "./support/Receiver.js"
import { deliverWebhooks, merchant, raw, type RawResponse, runJobs, serverLayer } from "./support/TestServer.js"

/**
 * What the service believes, and from whom: a PSP's webhook speaks only for what was done on its own
 * connection and about the attempt it names; amounts it could not have taken are not believed; a
 * simulated PSP never runs in live mode; secrets shown once stay sealed at rest; odd input is a 4xx.
 */

const sign = (secret: string, body: string) => {
  const t = Math.floor(Date.now() / 1000)
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`
}

/** A sandbox `charge.updated` event about attempt `reference` of `payment`. */
const chargeEvent = (
  id: string,
  payment: { id: string; amount: number; provider_payment_id: string | null },
  reference: string,
  charge: { status: string; amount_captured: number; capture: boolean; psp_id?: string; failure_code?: string }
) =>
  JSON.stringify({
    id,
    type: "charge.updated",
    created: Math.floor(Date.now() / 1000),
    data: {
      charge: {
        id: charge.psp_id ?? payment.provider_payment_id,
        reference,
        merchant_reference: payment.id,
        amount: payment.amount,
        currency: "EUR",
        token: "tok_visa",
        capture: charge.capture,
        status: charge.status,
        amount_captured: charge.amount_captured,
        failure_code: charge.failure_code ?? null,
        failure_message: charge.failure_code === undefined ? null : "Refused."
      }
    }
  })

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `what the service believes, and from whom, on ${database.name}`,
    (it) => {
      const api = (baseUrl: string, secret: string) => (path: string, init: { method?: string; body?: unknown; key?: string } = {}) =>
        raw(`${baseUrl}${path}`, {
          method: init.method ?? (init.body === undefined ? "GET" : "POST"),
          headers: json(secret, init.key ?? (path === "/v1/payments" ? newKey() : undefined)),
          ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
        })

      const connect = (call: ReturnType<typeof api>, name: string, settings: Record<string, unknown> = {}) =>
        Effect.map(
          call("/v1/provider-connections", { body: { name, type: "sandbox", webhook_secret: `whsec_${name}_secret`, settings } }),
          (response: RawResponse) => {
            expect(response.status).toBe(201)
            return response.json as { id: string; name: string }
          }
        )

      const deliver = (baseUrl: string, connection: { id: string; name: string }, body: string) =>
        raw(`${baseUrl}/v1/provider-webhooks/${connection.id}`, {
          method: "POST",
          headers: { "content-type": "application/json", "service-signature": sign(`whsec_${connection.name}_secret`, body) },
          body
        })

      it.effect("a webhook verified for one connection cannot move a payment made on another", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const call = api(baseUrl, secret)
          const [one, two] = [yield* connect(call, "psp_one"), yield* connect(call, "psp_two")]
          const paid = (yield* call("/v1/payments", {
            body: paymentWith("tok_threeDSecureRequired", { provider: "psp_one", return_url: "https://shop.example/back" })
          })).json
          expect(paid.status).toBe("requires_action")
          const succeeded = (id: string) => chargeEvent(id, paid, paid.attempts[0].id, { status: "succeeded", amount_captured: paid.amount, capture: true })

          // psp_two's secret is valid, so the webhook is taken, but it names psp_one's payment.
          expect((yield* deliver(baseUrl, two, succeeded("sbev_foreign"))).status).toBe(200)
          yield* runJobs("apply-provider-events")
          expect((yield* call(`/v1/payments/${paid.id}`)).json.status).toBe("requires_action")

          expect((yield* deliver(baseUrl, one, succeeded("sbev_own"))).status).toBe(200)
          yield* runJobs("apply-provider-events")
          expect((yield* call(`/v1/payments/${paid.id}`)).json.status).toBe("succeeded")
        }))

      it.effect("a late refusal of an attempt that failed over does not cancel the authorization that followed", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const call = api(baseUrl, secret)
          const failing = yield* connect(call, "psp_failing", { failure_rate: 1 })
          yield* connect(call, "psp_working")
          // Rules route to psp_failing first and cascade to psp_working.
          for (const [priority, provider] of [[1, "psp_failing"], [2, "psp_working"]] as const) {
            expect((yield* call("/v1/routing-rules", { body: { priority, conditions: {}, action: { provider } } })).status)
              .toBe(201)
          }
          expect((yield* call("/v1/organization", { method: "PATCH", body: { payments_routing: "rules" } })).status)
            .toBe(200)
          const held = (yield* call("/v1/payments", { body: paymentWith("tok_visa", { capture: false }) })).json
          expect(held.status, JSON.stringify(held)).toBe("requires_capture")
          const first = held.attempts[0]
          expect([first.provider, first.status, held.attempts.at(-1).provider === "psp_failing"])
            .toEqual(["psp_failing", "failed", false])

          // psp_failing's own refusal of its attempt, arriving after the payment moved on.
          const refused = chargeEvent("sbev_late", held, first.id, {
            status: "failed",
            amount_captured: 0,
            capture: false,
            psp_id: first.provider_payment_id ?? "ch_late",
            failure_code: "processing_error"
          })
          expect((yield* deliver(baseUrl, failing, refused)).status).toBe(200)
          yield* runJobs("apply-provider-events")
          const after = (yield* call(`/v1/payments/${held.id}`)).json
          expect([after.status, after.amount_captured]).toEqual(["requires_capture", 0])
          const captured = yield* call(`/v1/payments/${held.id}/capture`, { body: {}, key: newKey() })
          expect([captured.status, captured.json.status]).toEqual([200, "succeeded"])
        }))

      it.effect("a capture larger than the payment is not believed, and the next news still applies", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const call = api(baseUrl, secret)
          const psp = yield* connect(call, "psp_amounts")
          const paid = (yield* call("/v1/payments", {
            body: paymentWith("tok_threeDSecureRequired", { provider: "psp_amounts", return_url: "https://shop.example/back" })
          })).json
          const event = (id: string, amount: number) =>
            chargeEvent(id, paid, paid.attempts[0].id, { status: "succeeded", amount_captured: amount, capture: true })
          for (const [id, amount] of [["sbev_more", paid.amount + 1], ["sbev_negative", -5]] as const) {
            expect((yield* deliver(baseUrl, psp, event(id, amount))).status).toBe(200)
          }
          yield* runJobs("apply-provider-events")
          expect((yield* call(`/v1/payments/${paid.id}`)).json.status).toBe("requires_action")
          expect((yield* deliver(baseUrl, psp, event("sbev_right", paid.amount))).status).toBe(200)
          yield* runJobs("apply-provider-events")
          const settled = (yield* call(`/v1/payments/${paid.id}`)).json
          expect([settled.status, settled.amount_captured]).toEqual(["succeeded", paid.amount])
        }))

      it.effect("live mode refuses a simulated PSP: nothing can succeed there without moving money", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant(true)
          const refused = yield* api(baseUrl, secret)("/v1/provider-connections", { body: { name: "fake_live", type: "sandbox" } })
          expect([refused.status, refused.json.error.param]).toEqual([422, "type"])
          expect(refused.json.error.message).toContain("test mode only")
        }))

      it.effect("a signing secret replayed by Idempotency-Key is the same, and is not stored readable", () =>
        Effect.gen(function*() {
          const { baseUrl, secret, tenant } = yield* merchant()
          const call = api(baseUrl, secret)
          const key = newKey()
          const body = { url: "https://shop.example/hooks" }
          const created = yield* call("/v1/webhooks/endpoints", { body, key })
          const replayed = yield* call("/v1/webhooks/endpoints", { body, key })
          expect(created.status).toBe(201)
          expect([replayed.status, replayed.headers.get("idempotent-replayed"), replayed.json.secret])
            .toEqual([201, "true", created.json.secret])
          const rotateKey = newKey()
          const rotated = yield* call(`/v1/webhooks/endpoints/${created.json.id}/rotate-secret`, { body: {}, key: rotateKey })
          expect((yield* call(`/v1/webhooks/endpoints/${created.json.id}/rotate-secret`, { body: {}, key: rotateKey })).json.secret)
            .toBe(rotated.json.secret)

          const keys = yield* IdempotencyKeysRepository
          for (const used of [key, rotateKey]) {
            const stored = yield* keys.start(tenant, {
              key: used,
              fingerprint: "",
              resourceId: null,
              answer: null,
              lockedUntil: null,
              lockToken: null,
              createdAt: DateTime.unsafeNow()
            })
            const answer = Option.getOrThrow(stored).answer
            expect(answer?.outcome).toBe("succeeded")
            expect(answer?.body).not.toContain("whsec_")
          }
        }))

      it.scoped("a receiver answering with a NUL byte is recorded, not retried forever", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const call = api(baseUrl, secret)
          const receiver = yield* startReceiver
          receiver.answerWith(200, "ok\u0000!")
          yield* call("/v1/webhooks/endpoints", { body: { url: receiver.url, enabled_events: ["payment.succeeded"] } })
          yield* call("/v1/payments", { body: paymentWith("tok_visa") })
          yield* deliverWebhooks
          yield* deliverWebhooks
          expect(receiver.received).toHaveLength(1)
          const [delivery] = (yield* call("/v1/webhooks/deliveries")).json.data
          expect([delivery.status, delivery.attempt_count]).toEqual(["succeeded", 1])
          const detail = (yield* call(`/v1/webhooks/deliveries/${delivery.id}`)).json
          expect(detail.attempts[0].response_body).toBe("ok\uFFFD!")
        }))

      it.effect("odd input answers 400 or 409, never 500", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const call = api(baseUrl, secret)
          for (const created of ["-100000-01-01T00:00:00Z", "+200000-01-01T00:00:00Z", "-000001-01-01T00:00:00Z"]) {
            const listed = yield* call(`/v1/events?created%5Bgte%5D=${encodeURIComponent(created)}`)
            expect([listed.status, listed.json.error.param]).toEqual([400, "created[gte]"])
            const resent = yield* call("/v1/webhooks/deliveries/resend", { body: { created_after: created } })
            expect([resent.status, resent.json.error.param]).toEqual([400, "created_after"])
          }
          for (
            const [path, body] of [
              ["/v1/routing-rules", { priority: 1, conditions: { ["__proto__"]: { x: 1 } }, action: { provider: "sandbox_a" } }],
              ["/v1/payments", { ...paymentWith("tok_visa"), metadata: { ["__proto__"]: "x" } }]
            ] as const
          ) {
            // A computed key makes an own property named __proto__, as JSON.parse does.
            const refused = yield* call(path, { body, key: newKey() })
            expect([refused.status, refused.json.error.param]).toEqual([400, "__proto__"])
          }
          const evaluated = yield* call("/v1/routing-rules/evaluate", {
            body: { amount: 100, currency: "EUR", payment_method: { type: "card" }, colour: "blue" }
          })
          expect([evaluated.status, evaluated.json.error.param]).toEqual([400, "colour"])

          // Six creations of one name at once: one is created, the others told the name is taken.
          const statuses = yield* Effect.all(
            Array.from({ length: 6 }, () => call("/v1/provider-connections", { body: { name: "race_1", type: "sandbox" } })),
            { concurrency: "unbounded" }
          )
          expect(statuses.map((response) => response.status).sort()).toEqual([201, 409, 409, 409, 409, 409])
        }))
    }
  )
}
