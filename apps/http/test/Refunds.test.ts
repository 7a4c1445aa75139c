import { expect, layer } from "@effect/vitest"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `refunds over HTTP on ${database.name}`,
    (it) => {
      const setup = (token = "tok_visa", extra = {}) =>
        Effect.gen(function*() {
          const account = yield* merchant()
          const payment = yield* raw(`${account.baseUrl}/v1/payments`, {
            method: "POST",
            headers: json(account.secret, newKey()),
            body: JSON.stringify(paymentWith(token, { amount: 5000, ...extra }))
          })
          const refund = (body: object, key: string | null = newKey()) =>
            raw(`${account.baseUrl}/v1/payments/${payment.json.id}/refund`, {
              method: "POST",
              headers: json(account.secret, key ?? undefined),
              body: JSON.stringify(body)
            })
          const get = (path: string) => raw(`${account.baseUrl}${path}`, { headers: json(account.secret) })
          return { ...account, payment: payment.json, refund, get }
        })

      it.effect("refunds in part, then the rest by default; the payment counts what was refunded", () =>
        Effect.gen(function*() {
          const { get, payment, refund } = yield* setup()
          const first = yield* refund({ amount: 1500, reason: "requested_by_customer", metadata: { ticket: "T-1" } })
          expect(first.status).toBe(201)
          expect(first.json).toMatchObject({
            object: "refund",
            payment_id: payment.id,
            amount: 1500,
            currency: "EUR",
            status: "succeeded",
            reason: "requested_by_customer",
            failure: null,
            metadata: { ticket: "T-1" },
            livemode: false
          })
          expect(first.json.id).toMatch(/^ref_/)
          expect(first.json.provider_refund_id).toMatch(/^re_/)

          const rest = yield* refund({})
          expect([rest.status, rest.json.amount]).toEqual([201, 3500])
          expect((yield* get(`/v1/payments/${payment.id}`)).json.amount_refunded).toBe(5000)

          const none = yield* refund({})
          expect([none.status, none.json.error.code]).toEqual([409, "charge_already_refunded"])

          expect((yield* get(`/v1/refunds/${first.json.id}`)).json).toEqual(first.json)
          const listed = yield* get(`/v1/refunds?payment_id=${payment.id}&limit=1`)
          expect([listed.json.data.map((r: { id: string }) => r.id), listed.json.has_more]).toEqual([[rest.json.id], true])
          const next = yield* get(`/v1/refunds?payment_id=${payment.id}&starting_after=${listed.json.next_cursor}`)
          expect(next.json.data.map((r: { id: string }) => r.id)).toEqual([first.json.id])
        }))

      it.effect("refuses more than the refundable balance (422) and payments that did not succeed (409)", () =>
        Effect.gen(function*() {
          const { baseUrl, refund, secret } = yield* setup()
          const tooMuch = yield* refund({ amount: 5001 })
          expect([tooMuch.status, tooMuch.json.error.code, tooMuch.json.error.param]).toEqual([422, "amount_too_large", "amount"])

          const authorized = yield* raw(`${baseUrl}/v1/payments`, {
            method: "POST",
            headers: json(secret, newKey()),
            body: JSON.stringify(paymentWith("tok_visa", { capture: false }))
          })
          const notYet = yield* raw(`${baseUrl}/v1/payments/${authorized.json.id}/refund`, {
            method: "POST",
            headers: json(secret, newKey()),
            body: "{}"
          })
          expect([notYet.status, notYet.json.error.code]).toEqual([409, "payment_unexpected_state"])
          const missing = yield* raw(`${baseUrl}/v1/payments/pay_missing/refund`, {
            method: "POST",
            headers: json(secret, newKey()),
            body: "{}"
          })
          expect(missing.status).toBe(404)
          const noKey = yield* refund({ amount: 10 }, null)
          expect([noKey.status, noKey.json.error.param]).toEqual([400, "Idempotency-Key"])
        }))

      it.effect("answers a refused refund with 402 and gives the amount back to the payment", () =>
        Effect.gen(function*() {
          const { get, payment, refund } = yield* setup("tok_refundFail")
          expect(payment.status).toBe("succeeded")
          const refused = yield* refund({ amount: 1000 })
          expect(refused.status).toBe(402)
          expect(refused.json.error).toMatchObject({ type: "payment_error", code: "refund_declined" })
          expect(refused.json.error.refund).toMatchObject({ status: "failed", amount: 1000, failure: { code: "refund_declined" } })
          expect((yield* get(`/v1/payments/${payment.id}`)).json.amount_refunded).toBe(0)
        }))

      it.effect("replays a refund for its Idempotency-Key instead of refunding twice", () =>
        Effect.gen(function*() {
          const { get, payment, refund } = yield* setup()
          const key = newKey()
          const first = yield* refund({ amount: 700 }, key)
          const second = yield* refund({ amount: 700 }, key)
          expect([first.status, second.status, second.headers.get("idempotent-replayed")]).toEqual([201, 201, "true"])
          expect(second.json.id).toBe(first.json.id)
          expect((yield* get(`/v1/payments/${payment.id}`)).json.amount_refunded).toBe(700)
        }))
    }
  )
}
