import { expect, layer } from "@effect/vitest"
import { PaymentPolicy } from "@orchestrator/core"
import { fakeAdyen, fakeStripe, testDatabases } from "@orchestrator/testing"
import { Duration, Effect } from "effect"
import { fakePspConnection, goodCardOf, json, newKey } from "./support/Fixtures.js"
import { merchant, raw, runJobs, serverLayer } from "./support/TestServer.js"

/** The worker's reconciliation, without waiting for an attempt to be old enough (real clock here). */
const reconcileNow = Effect.flatMap(
  PaymentPolicy,
  (policy) => runJobs("reconcile-payments").pipe(Effect.provideService(PaymentPolicy, { ...policy, reconcileSchedule: [Duration.zero] }))
)

const TIMEOUT_MS = 1_000
/** Far past the deadline: a request that waited for it would take this long. */
const PSP_DELAY_MS = 6_000

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "60 seconds" })(
    `a PSP slower than the connection's timeout_ms, through the HTTP API, on ${database.name}`,
    (it) => {
      for (const psp of ["stripe", "adyen"] as const) {
        it.scoped(`${psp}: the API answers within timeout_ms + 1 s with the payment processing, and reconciliation settles it from the PSP's record, charged once`, () =>
          Effect.gen(function*() {
            const fake = psp === "stripe" ? yield* fakeStripe : yield* fakeAdyen
            const { baseUrl, secret } = yield* merchant()
            const created = yield* raw(`${baseUrl}/v1/provider-connections`, {
              method: "POST",
              headers: json(secret),
              body: JSON.stringify(fakePspConnection(psp, { name: `${psp}_slow`, url: fake.url, settings: { timeout_ms: TIMEOUT_MS } }))
            })
            expect(created.status).toBe(201)

            fake.injectFault({ delayMs: PSP_DELAY_MS })
            const started = performance.now()
            const answered = yield* raw(`${baseUrl}/v1/payments`, {
              method: "POST",
              headers: json(secret, newKey()),
              body: JSON.stringify({
                amount: 2500,
                currency: "EUR",
                payment_method: { type: "card", token: goodCardOf(psp) },
                provider: `${psp}_slow`
              })
            })
            const elapsed = performance.now() - started
            // The bound the issue demands: the deadline, plus a second for everything else.
            expect(elapsed).toBeLessThan(TIMEOUT_MS + 1_000)
            expect(answered.status).toBe(201)
            expect(answered.json).toMatchObject({ status: "processing", failure: null })
            expect(answered.json.attempts.map((attempt: any) => [attempt.status, attempt.error_code])).toEqual([["unknown", "timeout"]])
            const reference = answered.json.attempts[0].id as string
            // The PSP took the request (and charged) though its answer never came in time.
            expect(psp === "stripe" ? (fake as any).chargesFor(reference) : (fake as any).paymentsFor(reference)).toBe(1)

            // Reading it changes nothing by itself: the late answer is not applied blindly.
            const read = yield* raw(`${baseUrl}/v1/payments/${answered.json.id}`, { headers: json(secret) })
            expect(read.json.status).toBe("processing")

            yield* reconcileNow
            const settled = yield* raw(`${baseUrl}/v1/payments/${answered.json.id}`, { headers: json(secret) })
            expect(settled.json).toMatchObject({ status: "succeeded", amount_captured: 2500 })
            expect(settled.json.attempts.map((attempt: any) => [attempt.id, attempt.status])).toEqual([[reference, "succeeded"]])
            // Asked by our reference (Stripe: its search, then the same Idempotency-Key if need be;
            // Adyen: the same Idempotency-Key): one charge at the PSP in all, however often we asked.
            const asked = fake.exchanges.filter((exchange) =>
              exchange.headers["idempotency-key"] === reference || decodeURIComponent(exchange.url).includes(reference)
            )
            expect(asked.length).toBeGreaterThanOrEqual(1)
            expect(psp === "stripe" ? (fake as any).chargesFor(reference) : (fake as any).paymentsFor(reference)).toBe(1)
            expect(psp === "stripe" ? (fake as any).intents.size : (fake as any).payments.size).toBe(1)
          }))
      }
    }
  )
}
