import { expect, layer } from "@effect/vitest"
import { SandboxLedger } from "@orchestrator/connectors"
import { type Payment, PaymentsRepository } from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing"
import { Effect, Layer } from "effect"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

/**
 * Arms a one-shot failure of the transaction that records a succeeded charge, after the PSP and
 * before the answer: a crash (a bug), or the database going away (a restart) as the driver reports it.
 */
const fault: { armed: boolean; kind: "crash" | "database away" } = { armed: false, kind: "crash" }

/** What the PostgreSQL driver fails with when the server shuts down under a query. */
const databaseAway = () =>
  Object.assign(new Error("Failed to execute statement"), {
    _tag: "SqlError",
    cause: Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" })
  })
const failOnce = (payment: Payment) => {
  if (!fault.armed || payment.status !== "succeeded") return null
  fault.armed = false
  return Effect.die(
    fault.kind === "crash" ? new Error("injected crash: the PSP charged, the answer was never recorded") : databaseAway()
  )
}
/** Whichever way the store writes the answer (under the lock, or in one write when nothing changed). */
const CrashAfterCharge = Layer.effect(
  PaymentsRepository,
  Effect.map(PaymentsRepository, (real) => ({
    ...real,
    update: (tenant, payment) => failOnce(payment) ?? real.update(tenant, payment),
    updateIfUnchanged: (tenant, seen, payment, events, completion) => failOnce(payment) ?? real.updateIfUnchanged(tenant, seen, payment, events, completion)
  }))
)

for (const database of testDatabases()) {
  layer(serverLayer(database.layer, { payments: CrashAfterCharge }), { excludeTestServices: true, timeout: "120 seconds" })(
    `idempotency over HTTP on ${database.name}`,
    (it) => {
      it.effect("replays the original response with Idempotent-Replayed, declines included", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          for (const [token, status] of [["tok_visa", 201], ["tok_chargeDeclined", 402]] as const) {
            const key = newKey()
            const send = () => raw(`${baseUrl}/v1/payments`, { method: "POST", headers: json(secret, key), body: JSON.stringify(paymentWith(token)) })
            const first = yield* send()
            const second = yield* send()
            expect([first.status, second.status]).toEqual([status, status])
            expect(first.headers.get("idempotent-replayed")).toBeNull()
            expect(second.headers.get("idempotent-replayed")).toBe("true")
            expect(second.headers.get("request-id")).not.toBe(first.headers.get("request-id"))
            expect(second.headers.get("original-request-id")).toBe(first.headers.get("request-id"))
            if (status === 201) {
              expect(second.text).toBe(first.text)
            } else {
              // The same decline, told to this request: its body names it, and the header the first.
              expect(second.json).toEqual({ error: { ...first.json.error, request_id: second.headers.get("request-id") } })
            }
          }
          const listed = yield* raw(`${baseUrl}/v1/payments`, { headers: json(secret) })
          expect(listed.json.data).toHaveLength(2)
        }))

      it.effect("refuses a key reused with another body (422), and keeps keys per organization", () =>
        Effect.gen(function*() {
          const one = yield* merchant()
          const two = yield* merchant()
          const key = newKey()
          const send = (secret: string, amount: number) =>
            raw(`${one.baseUrl}/v1/payments`, {
              method: "POST",
              headers: json(secret, key),
              body: JSON.stringify(paymentWith("tok_visa", { amount }))
            })
          expect((yield* send(one.secret, 1000)).status).toBe(201)
          const reused = yield* send(one.secret, 2000)
          expect([reused.status, reused.json.error.type, reused.json.error.code]).toEqual([
            422,
            "idempotency_error",
            "idempotency_key_reused"
          ])
          // The same key belongs to nobody else.
          const other = yield* send(two.secret, 2000)
          expect([other.status, other.json.amount]).toEqual([201, 2000])
        }))

      it.effect("20 concurrent requests with one key make one payment and one PSP charge", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const key = newKey()
          const body = JSON.stringify(paymentWith("tok_visa"))
          const responses = yield* Effect.all(
            Array.from({ length: 20 }, () => raw(`${baseUrl}/v1/payments`, { method: "POST", headers: json(secret, key), body })),
            { concurrency: "unbounded" }
          )
          const statuses = responses.map((response) => response.status)
          expect(statuses.every((status) => status === 201 || status === 409)).toBe(true)
          expect(statuses).toContain(201)
          for (const busy of responses.filter((response) => response.status === 409)) {
            expect(busy.json.error).toMatchObject({ type: "idempotency_error", code: "idempotency_key_in_use" })
          }
          const ids = new Set(responses.filter((r) => r.status === 201).map((r) => r.json.id))
          expect(ids.size).toBe(1)
          const [paymentId] = [...ids]

          const listed = yield* raw(`${baseUrl}/v1/payments`, { headers: json(secret) })
          expect(listed.json.data.map((p: { id: string }) => p.id)).toEqual([paymentId])
          expect(yield* (yield* SandboxLedger).countCharges(paymentId)).toBe(1)

          // Once done, the same key replays.
          const after = yield* raw(`${baseUrl}/v1/payments`, { method: "POST", headers: json(secret, key), body })
          expect([after.status, after.json.id, after.headers.get("idempotent-replayed")]).toEqual([201, paymentId, "true"])
        }))

      it.effect("a crash after the PSP charged: 500, then the retry returns the same payment, charged once", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const key = newKey()
          const body = JSON.stringify(paymentWith("tok_visa", { amount: 4200 }))
          fault.armed = true
          fault.kind = "crash"
          const crashed = yield* raw(`${baseUrl}/v1/payments`, { method: "POST", headers: json(secret, key), body })
          expect(fault.armed).toBe(false)
          expect([crashed.status, crashed.json.error.type]).toEqual([500, "api_error"])

          // The payment exists, still `processing`: the PSP charged, we never recorded the answer.
          const before = yield* raw(`${baseUrl}/v1/payments`, { headers: json(secret) })
          expect(before.json.data.map((p: { status: string }) => p.status)).toEqual(["processing"])
          const paymentId = before.json.data[0].id
          const ledger = yield* SandboxLedger
          expect(yield* ledger.countCharges(paymentId)).toBe(1)

          const retried = yield* raw(`${baseUrl}/v1/payments`, { method: "POST", headers: json(secret, key), body })
          expect([retried.status, retried.json.id, retried.json.status]).toEqual([201, paymentId, "succeeded"])
          expect(retried.json.attempts).toHaveLength(1)
          expect(yield* ledger.countCharges(paymentId)).toBe(1)

          const replay = yield* raw(`${baseUrl}/v1/payments`, { method: "POST", headers: json(secret, key), body })
          expect([replay.headers.get("idempotent-replayed"), replay.text]).toEqual(["true", retried.text])
          const after = yield* raw(`${baseUrl}/v1/payments`, { headers: json(secret) })
          expect(after.json.data).toHaveLength(1)
        }))

      it.effect("the database going away mid-payment answers 503 with Retry-After; the retry finishes it, charged once", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const key = newKey()
          const body = JSON.stringify(paymentWith("tok_visa"))
          fault.armed = true
          fault.kind = "database away"
          const away = yield* raw(`${baseUrl}/v1/payments`, { method: "POST", headers: json(secret, key), body })
          expect(fault.armed).toBe(false)
          expect([away.status, away.json.error.type, away.json.error.code, away.headers.get("retry-after")])
            .toEqual([503, "api_error", "service_unavailable", "1"])
          const retried = yield* raw(`${baseUrl}/v1/payments`, { method: "POST", headers: json(secret, key), body })
          expect([retried.status, retried.json.status]).toEqual([201, "succeeded"])
          expect(yield* (yield* SandboxLedger).countCharges(retried.json.id)).toBe(1)
        }))
    }
  )
}
