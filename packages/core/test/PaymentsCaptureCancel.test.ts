import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, TestClock } from "effect"
import type { Running } from "../src/domain/idempotency/KeyRun.js"
import { Payment } from "../src/domain/payments/Payment.js"
import { IdempotentRequests } from "../src/features/idempotency/IdempotentRequests.js"
import { Payments } from "../src/features/payments/Payments.js"
import { request, run } from "./support/PaymentsFixture.js"
import { createTenant } from "./support/TestServices.js"

describe("Payments", () => {
  it.effect("authorizes for manual capture and captures less than authorized", () =>
    run(() =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const authorized = yield* payments.create(tenant, request("tok_visa", { capture: false }))
        expect(authorized.status).toBe("requires_capture")
        expect(authorized.amount_captured).toBe(0)

        const tooMuch = yield* Effect.flip(payments.capture(tenant, authorized.id, { amount: 1051 }))
        expect(tooMuch).toMatchObject({ _tag: "AmountTooLarge", param: "amount", maximum: 1050 })

        const captured = yield* payments.capture(tenant, authorized.id, { amount: 800 })
        expect(captured.status).toBe("succeeded")
        expect(captured.amount_captured).toBe(800)

        const again = yield* Effect.flip(payments.capture(tenant, authorized.id, {}))
        expect(again._tag).toBe("PaymentStateConflict")
      })
    ))

  it.effect("reports a capture the PSP did not answer as timed out, and leaves the payment as it was", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const authorized = yield* payments.create(tenant, request("tok_visa", { capture: false }))
        psp.setCaptureHangs(true)
        const fiber = yield* Effect.fork(Effect.flip(payments.capture(tenant, authorized.id, {})))
        yield* TestClock.adjust("31 seconds")
        const error = yield* Fiber.join(fiber)
        expect(error).toMatchObject({ _tag: "ProviderTimeout" })
        expect((yield* payments.retrieve(tenant, authorized.id)).status).toBe("requires_capture")
        psp.setCaptureHangs(false)
        expect((yield* payments.capture(tenant, authorized.id, {})).status).toBe("succeeded")
      })
    ))

  it.effect("cancels an authorization, and refuses to cancel a settled payment", () =>
    run(() =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const authorized = yield* payments.create(tenant, request("tok_visa", { capture: false }))
        const canceled = yield* payments.cancel(tenant, authorized.id, {})
        expect(canceled.status).toBe("canceled")
        const charged = yield* payments.create(tenant, request("tok_visa"))
        expect((yield* Effect.flip(payments.cancel(tenant, charged.id, {})))._tag).toBe("PaymentStateConflict")
      })
    ))

  it.effect("a capture or cancel cut short after it committed: the retry under its key gets the payment, not a 409", () =>
    run(() =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const keys = yield* IdempotentRequests
        const spec = { schema: Payment }
        for (const action of ["capture", "cancel"] as const) {
          const authorized = yield* payments.create(tenant, request("tok_visa", { capture: false }))
          const move = (run?: Running) =>
            action === "capture" ? payments.capture(tenant, authorized.id, { amount: 700 }, run) : payments.cancel(tenant, authorized.id, {}, run)
          const key = { tenant, key: `${action}-${authorized.id}`, fingerprint: action, requestId: null }
          // The move commits, then the process dies before the answer is kept.
          const crashed = yield* Effect.exit(keys.run(key, spec, (run) => Effect.zipRight(Effect.orDie(move(run)), Effect.die("crash"))))
          expect(crashed._tag).toBe("Failure")
          const retried = yield* keys.run(key, spec, move)
          const answered = retried.answer._tag === "Succeeded" ? JSON.parse(retried.answer.json) : {}
          expect([answered.status, answered.amount_captured]).toEqual(action === "capture" ? ["succeeded", 700] : ["canceled", 0])
          // Another key asking again is still told the payment has moved on.
          const other = yield* Effect.flip(move())
          expect(other._tag).toBe("PaymentStateConflict")
        }
      })
    ))
})
