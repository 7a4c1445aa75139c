import { expect, layer } from "@effect/vitest"
import { fakeAdyen, fakeStripe, testDatabases } from "@orchestrator/testing"
import { Effect, TestClock, TestContext } from "effect"
import { fakePspConnection, goodCardOf, json, newKey } from "./support/Fixtures.js"
import { merchant, raw, runJobs, serverLayer } from "./support/TestServer.js"

/** Far past the connection's deadline: the answer comes, but too late for the request. */
const PSP_DELAY_MS = 6_000

/**
 * One pass of the worker's reconciliation as it would run `secondsAfter` the attempt's call gave up
 * on the PSP (it was sent at `created_at`, and waited `latency_ms`).
 */
const reconcileAt = (attempt: { readonly created_at: string; readonly latency_ms: number }, secondsAfter: number) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(Date.parse(attempt.created_at) + attempt.latency_ms + secondsAfter * 1_000)
    yield* runJobs("reconcile-payments")
  }).pipe(Effect.provide(TestContext.TestContext))

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "60 seconds" })(
    `a PSP answer lost to the deadline, on ${database.name}`,
    (it) => {
      for (const psp of ["stripe", "adyen"] as const) {
        /** A payment whose PSP charged but answered after `timeout_ms`: 201 `processing`. */
        const lateAnswered = (key: string) =>
          Effect.gen(function*() {
            const fake = psp === "stripe" ? yield* fakeStripe : yield* fakeAdyen
            const { baseUrl, secret } = yield* merchant()
            const created = yield* raw(`${baseUrl}/v1/provider-connections`, {
              method: "POST",
              headers: json(secret),
              body: JSON.stringify(fakePspConnection(psp, { name: `${psp}_late`, url: fake.url, settings: { timeout_ms: 1_000 } }))
            })
            expect(created.status).toBe(201)
            fake.injectFault({ delayMs: PSP_DELAY_MS })
            const request = {
              method: "POST",
              headers: json(secret, key),
              body: JSON.stringify({
                amount: 4200,
                currency: "EUR",
                payment_method: { type: "card", token: goodCardOf(psp) },
                provider: `${psp}_late`
              })
            }
            const answered = yield* raw(`${baseUrl}/v1/payments`, request)
            expect(answered.status).toBe(201)
            expect(answered.json.status).toBe("processing")
            expect(answered.json.attempts.map((attempt: any) => attempt.status)).toEqual(["unknown"])
            const attempt = answered.json.attempts[0]
            const charges = () => psp === "stripe" ? (fake as any).chargesFor(attempt.id) : (fake as any).paymentsFor(attempt.id)
            const askedAbout = () =>
              fake.exchanges.filter((exchange) => exchange.headers["idempotency-key"] === attempt.id || decodeURIComponent(exchange.url).includes(attempt.id))
                .length
            const read = () => Effect.map(raw(`${baseUrl}/v1/payments/${answered.json.id}`, { headers: json(secret) }), (r) => r.json)
            return { baseUrl, request, answered, attempt, charges, askedAbout, read }
          })

        it.scoped(`${psp}: the worker asks 5 s after the attempt's call gave up, not before, and the payment settles then, charged once`, () =>
          Effect.gen(function*() {
            const { askedAbout, attempt, charges, read } = yield* lateAnswered(newKey())
            const before = askedAbout()

            yield* reconcileAt(attempt, 4)
            expect(askedAbout()).toBe(before)
            expect((yield* read()).status).toBe("processing")

            yield* reconcileAt(attempt, 5)
            expect(askedAbout()).toBeGreaterThan(before)
            const settled = yield* read()
            expect(settled).toMatchObject({ status: "succeeded", amount_captured: 4200 })
            expect(settled.attempts.map((a: any) => [a.id, a.status])).toEqual([[attempt.id, "succeeded"]])
            expect(charges()).toBe(1)
          }))

        it.scoped(`${psp}: a retry with the same Idempotency-Key asks the PSP and answers the settled payment at once`, () =>
          Effect.gen(function*() {
            const key = newKey()
            const { answered, askedAbout, attempt, baseUrl, charges, read, request } = yield* lateAnswered(key)
            const before = askedAbout()

            const retried = yield* raw(`${baseUrl}/v1/payments`, request)
            expect(retried.status).toBe(201)
            expect(retried.headers.get("idempotent-replayed")).toBe("true")
            expect(retried.json).toMatchObject({ id: answered.json.id, status: "succeeded", amount_captured: 4200 })
            expect(retried.json.attempts.map((a: any) => [a.id, a.status])).toEqual([[attempt.id, "succeeded"]])
            expect(askedAbout()).toBeGreaterThan(before)
            expect((yield* read()).status).toBe("succeeded")

            // Settled, a further retry asks nothing more and still answers the payment as it is.
            const asked = askedAbout()
            const again = yield* raw(`${baseUrl}/v1/payments`, request)
            expect(again.json).toMatchObject({ id: answered.json.id, status: "succeeded" })
            expect(askedAbout()).toBe(asked)
            expect(charges()).toBe(1)
          }))
      }
    }
  )
}
