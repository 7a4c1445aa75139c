import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import type { CreatePayment } from "../src/domain/payments/Payment.js"
import { AuthorizationOutcome } from "../src/domain/providers/ConnectorOutcomes.js"
import { Payments } from "../src/features/payments/Payments.js"
import { RETURN_SYNC_INTERVAL } from "../src/features/payments/ReturnSyncThrottle.js"
import { card, eventTypes, request, run } from "./support/PaymentsFixture.js"
import { createTenant } from "./support/TestServices.js"

describe("Payments", () => {
  it.effect("charges a card and records created, processing and succeeded in order", () =>
    run(() =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const payment = yield* payments.create(tenant, request("tok_visa"))
        expect(payment.status).toBe("succeeded")
        expect(payment.amount_captured).toBe(1050)
        expect(payment.provider).toBe("sandbox_a")
        expect(payment.payment_method.last4).toBe("4242")
        expect(payment.attempts).toHaveLength(1)
        expect(payment.attempts[0]!.status).toBe("succeeded")
        expect(payment.attempts[0]!.latency_ms).toBe(0)
        expect(yield* eventTypes(tenant, payment.id)).toEqual([
          "payment.created",
          "payment.processing",
          "payment.succeeded"
        ])
      })
    ))

  it.effect("reports a decline as a failed payment, and never retries it", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const error = yield* Effect.flip((yield* Payments).create(tenant, request("tok_declined")))
        expect(error._tag).toBe("PaymentRefused")
        if (error._tag !== "PaymentRefused") return
        expect(error.payment.status).toBe("failed")
        expect(error.payment.failure).toEqual({ code: "card_declined", message: "Your card was declined." })
        expect(error.payment.attempts).toHaveLength(1)
        expect(psp.calls).toHaveLength(1)
      })
    ))

  it.effect("retries a processing error once, under a new PSP reference", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payment = yield* (yield* Payments).create(tenant, request("tok_flaky"))
        expect(payment.status).toBe("succeeded")
        expect(payment.attempts.map((attempt) => [attempt.status, attempt.error_code])).toEqual([
          ["failed", "processing_error"],
          ["succeeded", null]
        ])
        expect(new Set(psp.calls.map((call) => call.reference)).size).toBe(2)
      })
    ))

  it.effect("gives up after the second processing error", () =>
    run(() =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const error = yield* Effect.flip((yield* Payments).create(tenant, request("tok_broken")))
        expect(error._tag).toBe("PaymentRefused")
        if (error._tag !== "PaymentRefused") return
        expect(error.payment.status).toBe("failed")
        expect(error.payment.attempts).toHaveLength(2)
      })
    ))

  it.effect("fails the payment (402, saved) when the PSP refuses connections, after one retry", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const error = yield* Effect.flip((yield* Payments).create(tenant, request("tok_down")))
        expect(error._tag).toBe("PaymentRefused")
        if (error._tag !== "PaymentRefused") return
        expect([error.code, error.payment.status]).toEqual(["provider_unavailable", "failed"])
        expect(psp.calls).toHaveLength(2)
      })
    ))

  it.effect("waits for 3D Secure, then settles when the customer returns", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const pending = yield* payments.create(tenant, request("tok_3ds"))
        expect(pending.status).toBe("requires_action")
        expect(pending.next_action).toEqual({ type: "redirect", url: "https://psp/3ds" })

        const token = psp.returnTokenOf(pending.id)
        // Back before finishing the challenge: nothing changes.
        expect((yield* payments.returnFromAction(pending.id, token)).status).toBe("requires_action")

        psp.settleLater(
          pending.attempts[0]!.id,
          AuthorizationOutcome.Authorized({ pspPaymentId: "psp_3ds", captured: true, amountCaptured: 1050, card })
        )
        // The PSP is asked again once the interval since the last return has passed.
        yield* TestClock.adjust(RETURN_SYNC_INTERVAL)
        const done = yield* payments.returnFromAction(pending.id, token)
        expect(done.status).toBe("succeeded")
        expect(done.next_action).toBeNull()
        // A second return (reload) changes nothing.
        expect((yield* payments.returnFromAction(pending.id, token)).status).toBe("succeeded")
        expect(yield* eventTypes(tenant, pending.id)).toEqual([
          "payment.created",
          "payment.processing",
          "payment.requires_action",
          "payment.processing",
          "payment.succeeded"
        ])
      })
    ))

  it.effect("cancels a payment that needs 3D Secure but has no return_url", () =>
    run(() =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const error = yield* Effect.flip(
          (yield* Payments).create(tenant, { ...request("tok_3ds"), return_url: undefined } as CreatePayment)
        )
        expect(error._tag).toBe("ReturnUrlRequired")
        if (error._tag !== "ReturnUrlRequired") return
        expect(error.payment.status).toBe("canceled")
        expect(error.payment.failure?.code).toBe("return_url_required")
      })
    ))

  it.effect("keeps tenants apart: another organization or mode cannot see a payment", () =>
    run(() =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const other = yield* createTenant
        const payments = yield* Payments
        const payment = yield* payments.create(tenant, request("tok_visa"))
        expect((yield* Effect.flip(payments.retrieve(other, payment.id)))._tag).toBe("PaymentNotFound")
        expect((yield* Effect.flip(payments.retrieve({ ...tenant, livemode: true }, payment.id)))._tag).toBe(
          "PaymentNotFound"
        )
      })
    ))

  it.effect("refuses a provider the organization does not have, and live mode without a default", () =>
    run(() =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const unknown = yield* Effect.flip(payments.create(tenant, request("tok_visa", { provider: "stripe" })))
        expect(unknown).toMatchObject({ _tag: "ProviderNotUsable", provider: "stripe" })
        const live = yield* Effect.flip(payments.create({ ...tenant, livemode: true }, request("tok_visa")))
        expect(live._tag).toBe("NoProviderAvailable")
      })
    ))
})
