import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Fiber, TestClock } from "effect"
import type { Currency } from "../src/domain/Currency.js"
import type { CreatePayment } from "../src/domain/payments/Payment.js"
import { PaymentPolicy } from "../src/domain/payments/PaymentPolicy.js"
import { RETURN_TOKEN_LIFETIME_SECONDS, signReturnToken } from "../src/domain/payments/ReturnToken.js"
import { AuthorizationOutcome } from "../src/domain/providers/ConnectorOutcomes.js"
import { PaymentRecovery } from "../src/features/payments/PaymentRecovery.js"
import { Payments } from "../src/features/payments/Payments.js"
import { RETURN_SYNC_INTERVAL } from "../src/features/payments/ReturnSyncThrottle.js"
import { KeyMaterial } from "../src/ports/KeyMaterial.js"
import { createTenant, makeTestServices } from "./support/TestServices.js"

const card = { brand: "visa", last4: "4242", country: "US" }
const challenge = AuthorizationOutcome.ActionRequired({ pspPaymentId: "psp_3ds", redirectUrl: "https://psp/3ds", card })
const authorized = AuthorizationOutcome.Authorized({ pspPaymentId: "psp_3ds", captured: true, amountCaptured: 1050, card })

const request = (token: string): CreatePayment => ({
  amount: 1050,
  currency: "EUR" as Currency,
  payment_method: { type: "card", token },
  return_url: "https://shop.example/back"
})

const run = <A, E>(body: (services: ReturnType<typeof makeTestServices>) => Effect.Effect<A, E, any>) => {
  const services = makeTestServices({ tok_3ds: [challenge], tok_lost: ["hang", challenge] })
  return body(services).pipe(Effect.provide(services.layer)) as Effect.Effect<A, E, never>
}

/** A payment waiting on its customer's 3D Secure, and the token its return URL carries. */
const waiting = (psp: ReturnType<typeof makeTestServices>["psp"]) =>
  Effect.gen(function*() {
    const tenant = yield* createTenant
    const payment = yield* (yield* Payments).create(tenant, request("tok_3ds"))
    expect(payment.status).toBe("requires_action")
    return { tenant, payment, token: psp.returnTokenOf(payment.id)! }
  })

describe("the return from 3D Secure", () => {
  it.effect("carries a token in the return URL the PSP is sent, and settles the payment with it", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const { payment, token } = yield* waiting(psp)
        expect(psp.calls[0]!.returnUrl).toBe(`http://orchestrator.test/v1/payments/${payment.id}/return?token=${token}`)
        expect(token).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/)
        psp.settleLater(payment.attempts[0]!.id, authorized)
        expect((yield* (yield* Payments).returnFromAction(payment.id, token)).status).toBe("succeeded")
      })
    ))

  it.effect("without a valid token: not found, and neither the PSP nor the payment is touched", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const payments = yield* Payments
        const { payment, tenant, token } = yield* waiting(psp)
        const other = yield* waiting(psp)
        psp.settleLater(payment.attempts[0]!.id, authorized)
        const { returnSigning } = yield* KeyMaterial
        const [expiresAt, signature] = token.split(".") as [string, string]
        const flipped = `${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`
        const refused = [
          undefined,
          "",
          "garbage",
          `${expiresAt}.${flipped}`,
          // A later expiry under the same signature.
          `${Number(expiresAt) + 3600}.${signature}`,
          // Another payment's token, valid for that payment.
          other.token,
          // Signed by us for this payment, but for the other mode of its organization.
          yield* signReturnToken(returnSigning, payment.id, { ...tenant, livemode: true }, Number(expiresAt))
        ]
        for (const candidate of refused) {
          const error = yield* Effect.flip(payments.returnFromAction(payment.id, candidate, { redirectResult: "x" }))
          expect([candidate, error._tag]).toEqual([candidate, "PaymentNotFound"])
        }
        expect(psp.syncs).toEqual([])
        expect((yield* payments.retrieve(tenant, payment.id)).status).toBe("requires_action")
      })
    ))

  it.effect("a token expires 48 hours after the payment was created", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const payments = yield* Payments
        const { payment, token } = yield* waiting(psp)
        yield* TestClock.adjust(Duration.seconds(RETURN_TOKEN_LIFETIME_SECONDS - 1))
        expect((yield* payments.returnFromAction(payment.id, token)).id).toBe(payment.id)
        yield* TestClock.adjust("1 second")
        expect((yield* Effect.flip(payments.returnFromAction(payment.id, token)))._tag).toBe("PaymentNotFound")
        expect(psp.syncs).toHaveLength(1)
      })
    ))

  it.effect("asks the PSP at most once per payment in the interval, however often the customer comes back", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const payments = yield* Payments
        const { payment, token } = yield* waiting(psp)
        const other = yield* waiting(psp)
        yield* Effect.all(
          [1, 2, 3].map(() => payments.returnFromAction(payment.id, token)),
          { concurrency: "unbounded" }
        )
        expect(psp.syncs).toHaveLength(1)
        // Another payment has an interval of its own.
        yield* payments.returnFromAction(other.payment.id, other.token)
        expect(psp.syncs).toHaveLength(2)
        // The PSP settled meanwhile: a return inside the interval shows the payment as last recorded.
        psp.settleLater(payment.attempts[0]!.id, authorized)
        yield* TestClock.adjust(Duration.subtract(RETURN_SYNC_INTERVAL, Duration.millis(1)))
        expect((yield* payments.returnFromAction(payment.id, token)).status).toBe("requires_action")
        expect(psp.syncs).toHaveLength(2)
        yield* TestClock.adjust("1 millis")
        expect((yield* payments.returnFromAction(payment.id, token)).status).toBe("succeeded")
        expect(psp.syncs).toHaveLength(3)
      })
    ))

  it.effect("a send repeated by reconciliation gives the PSP the same return URL (same parameters under the same key)", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const fiber = yield* Effect.fork((yield* Payments).create(tenant, request("tok_lost")))
        yield* TestClock.adjust(Duration.sum((yield* PaymentPolicy).callTimeout, Duration.seconds(1)))
        const sent = yield* Fiber.join(fiber)
        expect(sent.status).toBe("processing")
        yield* TestClock.adjust("1 hour")
        yield* (yield* PaymentRecovery).reconcile({ tenant, paymentId: sent.id })
        expect(psp.calls.map((call) => call.reference)).toEqual([sent.attempts[0]!.id, sent.attempts[0]!.id])
        expect(psp.calls[1]!.returnUrl).toBe(psp.calls[0]!.returnUrl)
      })
    ))
})
