import { sandboxDefinition } from "@orchestrator/connectors/sandbox/SandboxConnector"
import { SandboxLedger } from "@orchestrator/connectors/sandbox/SandboxLedger"
import {
  AuthorizationOutcome,
  ConnectorUnavailable,
  CaptureOutcome,
  ModificationOutcome,
  type PaymentConnector,
  RefundOutcome
} from "@orchestrator/core/providers/PaymentConnector"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, FastCheck as fc, Fiber, Option, Schema, TestClock } from "effect"
import { authorizeRequest, BASE_URL, chargeOf, EUR, sandbox, withLedger } from "./fixtures.js"

const visa = { brand: "visa", last4: "4242", country: "US" }

/** The pspPaymentId of an outcome that must carry one. */
const pspIdOf = (outcome: AuthorizationOutcome): string => {
  if (outcome._tag === "Unknown" || outcome.pspPaymentId === null) {
    throw new Error(`expected an outcome with a pspPaymentId, got ${outcome._tag}`)
  }
  return outcome.pspPaymentId
}

const refundIdOf = (outcome: RefundOutcome): string | null =>
  outcome._tag === "Unknown" ? null : outcome.pspRefundId

/** Authorizes with `capture: false` and returns the pspPaymentId of the authorization. */
const authorizeOnly = (connector: PaymentConnector, reference = "att_auth") =>
  Effect.map(
    connector.authorize(authorizeRequest("tok_visa", { reference, capture: false })),
    (outcome) => {
      expect(outcome).toMatchObject({ _tag: "Authorized", captured: false })
      return pspIdOf(outcome)
    }
  )

/** Charges (captures) 10.50 EUR with `token` and returns the pspPaymentId. */
const charge = (connector: PaymentConnector, token = "tok_visa", reference = "att_charge") =>
  Effect.map(connector.authorize(authorizeRequest(token, { reference })), (outcome) => {
    expect(outcome).toMatchObject({ _tag: "Authorized", captured: true })
    return pspIdOf(outcome)
  })

const refund = (connector: PaymentConnector, pspPaymentId: string, amount: number, reference: string) =>
  connector.refund({ reference, pspPaymentId, amount, currency: EUR, reason: null })

describe("SandboxConnector", () => {
  describe("authorize: test tokens decide the outcome", () => {
    it.effect("tok_visa charges the card and reports its details", () =>
      withLedger(Effect.gen(function*() {
        const { connector, ledger } = yield* sandbox()
        const outcome = yield* connector.authorize(authorizeRequest("tok_visa"))
        expect(outcome).toMatchObject({ _tag: "Authorized", captured: true, card: visa })
        const id = pspIdOf(outcome)
        expect(id).toMatch(/^ch_[0-9A-Z]{30}$/)

        const stored = yield* chargeOf(id)
        expect(stored).toMatchObject({
          connectionId: "pcn_test",
          reference: "att_1",
          merchantReference: "pay_1",
          amount: 1050,
          currency: "EUR",
          status: "succeeded",
          amountCaptured: 1050,
          amountRefunded: 0
        })
        expect(yield* ledger.countCharges("pay_1")).toBe(1)
      })))

    it.effect("other approving tokens report their own card", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        expect(yield* connector.authorize(authorizeRequest("tok_mastercard", { reference: "att_mc" }))).toMatchObject({
          _tag: "Authorized",
          card: { brand: "mastercard", last4: "4444", country: "US" }
        })
        expect(yield* connector.authorize(authorizeRequest("tok_visa_fr", { reference: "att_fr" }))).toMatchObject({
          _tag: "Authorized",
          card: { brand: "visa", last4: "0003", country: "FR" }
        })
      })))

    const refusals = [
      { token: "tok_chargeDeclined", code: "card_declined", retryable: false, last4: "0002" },
      { token: "tok_insufficientFunds", code: "insufficient_funds", retryable: false, last4: "9995" },
      { token: "tok_processingError", code: "processing_error", retryable: true, last4: "0119" }
    ] as const

    for (const { code, last4, retryable, token } of refusals) {
      it.effect(`${token} is refused with ${code} (retryable: ${retryable})`, () =>
        withLedger(Effect.gen(function*() {
          const { connector, ledger } = yield* sandbox()
          const outcome = yield* connector.authorize(authorizeRequest(token))
          expect(outcome).toMatchObject({
            _tag: "Refused",
            code,
            retryable,
            card: { brand: "visa", last4, country: "US" }
          })
          expect(outcome._tag === "Refused" && outcome.message.length > 0).toBe(true)
          const stored = yield* chargeOf(pspIdOf(outcome))
          expect([stored.status, stored.failureCode, stored.amountCaptured]).toEqual(["failed", code, 0])
          // A refused charge moved no money.
          expect(yield* ledger.countCharges("pay_1")).toBe(0)
        })))
    }

    it.effect("tok_threeDSecureRequired asks for a challenge on the sandbox's 3DS page", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const outcome = yield* connector.authorize(authorizeRequest("tok_threeDSecureRequired"))
        const id = pspIdOf(outcome)
        expect(outcome).toEqual(AuthorizationOutcome.ActionRequired({
          pspPaymentId: id,
          redirectUrl: `${BASE_URL}/sandbox/3ds/${id}`,
          card: { brand: "visa", last4: "3184", country: "US" }
        }))
        expect((yield* chargeOf(id)).status).toBe("requires_action")
      })))

    it.effect("an unknown token is refused as invalid_payment_method with no card details", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const outcome = yield* connector.authorize(authorizeRequest("tok_nope"))
        expect(outcome).toMatchObject({
          _tag: "Refused",
          code: "invalid_payment_method",
          retryable: false,
          card: { brand: null, last4: null, country: null }
        })
        expect(outcome._tag === "Refused" ? outcome.message : "").toContain("tok_nope")
      })))

    it.effect("capture: false only authorizes", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const outcome = yield* connector.authorize(authorizeRequest("tok_visa", { capture: false }))
        expect(outcome).toMatchObject({ _tag: "Authorized", captured: false, card: visa })
        const stored = yield* chargeOf(pspIdOf(outcome))
        expect([stored.status, stored.amountCaptured]).toEqual(["authorized", 0])
      })))
  })

  describe("authorize: idempotency by reference", () => {
    it.effect("the same reference sent twice returns the same outcome and charges once", () =>
      withLedger(Effect.gen(function*() {
        const { connector, ledger } = yield* sandbox()
        const first = yield* connector.authorize(authorizeRequest("tok_visa"))
        const second = yield* connector.authorize(authorizeRequest("tok_visa"))
        expect(second).toEqual(first)
        expect(yield* ledger.countCharges("pay_1")).toBe(1)
      })))

    it.effect("a replay answers with the original charge even if the request changed", () =>
      withLedger(Effect.gen(function*() {
        const { connector, ledger } = yield* sandbox()
        const first = yield* connector.authorize(authorizeRequest("tok_visa"))
        const replay = yield* connector.authorize(
          authorizeRequest("tok_chargeDeclined", { amount: 99_999, capture: false })
        )
        expect(replay).toEqual(first)
        expect((yield* chargeOf(pspIdOf(first))).amount).toBe(1050)
        expect(yield* ledger.countCharges("pay_1")).toBe(1)
      })))

    it.effect("a declined reference stays declined on replay, under the same charge", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const first = yield* connector.authorize(authorizeRequest("tok_chargeDeclined"))
        const second = yield* connector.authorize(authorizeRequest("tok_chargeDeclined"))
        expect(second).toEqual(first)
        expect(first._tag).toBe("Refused")
      })))

    it.effect("a new reference makes a new charge", () =>
      withLedger(Effect.gen(function*() {
        const { connector, ledger } = yield* sandbox()
        const first = yield* connector.authorize(authorizeRequest("tok_visa", { reference: "att_1" }))
        const second = yield* connector.authorize(authorizeRequest("tok_visa", { reference: "att_2" }))
        expect(pspIdOf(second)).not.toBe(pspIdOf(first))
        expect(yield* ledger.countCharges("pay_1")).toBe(2)
      })))

    it.effect("references are scoped to the connection", () =>
      withLedger(Effect.gen(function*() {
        const a = yield* sandbox({}, "pcn_test")
        const b = yield* sandbox({}, "pcn_other")
        const onA = yield* a.connector.authorize(authorizeRequest("tok_visa"))
        const onB = yield* b.connector.authorize(authorizeRequest("tok_visa"))
        expect(pspIdOf(onB)).not.toBe(pspIdOf(onA))
        expect((yield* chargeOf(pspIdOf(onB))).connectionId).toBe("pcn_other")
        expect(yield* a.ledger.countCharges("pay_1")).toBe(2)
      })))
  })

  describe("settings", () => {
    it.effect("outage: every call fails with ConnectorUnavailable and nothing is recorded", () =>
      withLedger(Effect.gen(function*() {
        const healthy = yield* sandbox()
        const id = yield* charge(healthy.connector)
        const { connector, ledger } = yield* sandbox({ outage: true })

        const error = yield* Effect.flip(connector.authorize(authorizeRequest("tok_visa", { reference: "att_down" })))
        expect(error).toBeInstanceOf(ConnectorUnavailable)
        expect(error.reason).toContain("sandbox_a")
        expect(yield* ledger.findChargeByReference("pcn_test", "att_down")).toEqual(Option.none())

        const refundError = yield* Effect.flip(refund(connector, id, 100, "ref_down"))
        expect(refundError._tag).toBe("ConnectorUnavailable")
        expect(yield* ledger.findRefundByReference("pcn_test", "ref_down")).toEqual(Option.none())

        expect((yield* Effect.flip(connector.cancel({ reference: "c", pspPaymentId: id })))._tag)
          .toBe("ConnectorUnavailable")
        expect((yield* Effect.flip(connector.capture({ reference: "c", pspPaymentId: id, amount: 1, currency: EUR })))._tag)
          .toBe("ConnectorUnavailable")
        expect((yield* Effect.flip(connector.syncPayment({ reference: "att_charge", pspPaymentId: null })))._tag)
          .toBe("ConnectorUnavailable")
        expect((yield* Effect.flip(connector.syncRefund({ reference: "ref_down" })))._tag).toBe("ConnectorUnavailable")

        const untouched = yield* chargeOf(id)
        expect([untouched.status, untouched.amountRefunded]).toEqual(["succeeded", 0])
        expect(yield* ledger.countCharges("pay_1")).toBe(1)
      })))

    it.effect("latency_ms delays the answer, but the charge is made before the delay", () =>
      withLedger(Effect.gen(function*() {
        const { connector, ledger } = yield* sandbox({ latency_ms: 500 })
        const fiber = yield* Effect.fork(connector.authorize(authorizeRequest("tok_visa")))

        yield* TestClock.adjust("499 millis")
        expect(yield* Fiber.poll(fiber)).toEqual(Option.none())
        const recorded = yield* ledger.findChargeByReference("pcn_test", "att_1")
        expect(Option.map(recorded, (charge) => charge.status)).toEqual(Option.some("succeeded"))

        yield* TestClock.adjust("1 millis")
        const outcome = yield* Fiber.join(fiber)
        expect(outcome).toMatchObject({ _tag: "Authorized", captured: true })
        expect(pspIdOf(outcome)).toBe(Option.getOrThrow(recorded).id)
      })))

    it.effect("latency_ms: a caller that times out loses the answer, not the charge", () =>
      withLedger(Effect.gen(function*() {
        const { connector, ledger } = yield* sandbox({ latency_ms: 5_000 })
        const fiber = yield* Effect.fork(
          Effect.timeout(connector.authorize(authorizeRequest("tok_visa")), "1 second")
        )
        yield* TestClock.adjust("1 second")
        const error = yield* Effect.flip(Fiber.join(fiber))
        expect(error._tag).toBe("TimeoutException")
        expect(yield* ledger.countCharges("pay_1")).toBe(1)

        // The retry under the same reference finds the charge that was made.
        const retry = yield* Effect.fork(connector.syncPayment({ reference: "att_1", pspPaymentId: null }))
        yield* TestClock.adjust("5 seconds")
        expect(yield* Fiber.join(retry)).toMatchObject({ _tag: "Authorized", captured: true })
      })))

    it.effect("failure_rate: 1 turns every new charge into a retryable processing_error", () =>
      withLedger(Effect.gen(function*() {
        const { connector, ledger } = yield* sandbox({ failure_rate: 1 })
        for (const [index, token] of ["tok_visa", "tok_threeDSecureRequired", "tok_chargeDeclined"].entries()) {
          const outcome = yield* connector.authorize(authorizeRequest(token, { reference: `att_${index}` }))
          expect(outcome).toMatchObject({ _tag: "Refused", code: "processing_error", retryable: true })
        }
        expect(yield* ledger.countCharges("pay_1")).toBe(0)
      })))

    it.effect("failure_rate only affects new charges: a replay keeps its original answer", () =>
      withLedger(Effect.gen(function*() {
        const healthy = yield* sandbox()
        const first = yield* healthy.connector.authorize(authorizeRequest("tok_visa"))
        const failing = yield* sandbox({ failure_rate: 1 })
        expect(yield* failing.connector.authorize(authorizeRequest("tok_visa"))).toEqual(first)
      })))

    it.effect.prop(
      "failure_rate: 0 never injects a failure",
      [fc.string({ minLength: 1, maxLength: 40 })],
      ([reference]) =>
        withLedger(Effect.gen(function*() {
          const { connector } = yield* sandbox({ failure_rate: 0 })
          const outcome = yield* connector.authorize(authorizeRequest("tok_visa", { reference }))
          expect(outcome._tag).toBe("Authorized")
        }))
    )

    it.effect.prop(
      "failure_rate: 0.5 gives a reference the same answer every time, even on a fresh ledger",
      [fc.string({ minLength: 1, maxLength: 40 })],
      ([reference]) =>
        Effect.gen(function*() {
          const once = Effect.gen(function*() {
            const { connector } = yield* sandbox({ failure_rate: 0.5 })
            const first = yield* connector.authorize(authorizeRequest("tok_visa", { reference }))
            const second = yield* connector.authorize(authorizeRequest("tok_visa", { reference }))
            expect(second).toEqual(first)
            return first._tag === "Refused" ? first.code : first._tag
          })
          // A second sandbox knows nothing of the first charge, yet decides the same way.
          expect(yield* withLedger(once)).toBe(yield* withLedger(once))
        })
    )

    it.effect.prop(
      "a reference that fails at some failure_rate also fails at any higher one",
      [fc.string({ minLength: 1, maxLength: 40 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })],
      ([reference, x, y]) =>
        Effect.gen(function*() {
          const [low, high] = x <= y ? [x, y] : [y, x]
          const failsAt = (rate: number) =>
            withLedger(Effect.gen(function*() {
              const { connector } = yield* sandbox({ failure_rate: rate })
              const outcome = yield* connector.authorize(authorizeRequest("tok_visa", { reference }))
              return outcome._tag === "Refused"
            }))
          if (yield* failsAt(low)) expect(yield* failsAt(high)).toBe(true)
        })
    )

    it.effect("failure_rate: 0.5 fails about half of the charges", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox({ failure_rate: 0.5 })
        let refused = 0
        for (let i = 0; i < 1000; i++) {
          const outcome = yield* connector.authorize(authorizeRequest("tok_visa", { reference: `att_${i}` }))
          if (outcome._tag === "Refused") refused++
        }
        expect(refused).toBeGreaterThan(400)
        expect(refused).toBeLessThan(600)
      })))

    it.effect("invalid or unknown settings are refused", () =>
      withLedger(Effect.gen(function*() {
        const definition = sandboxDefinition(yield* SandboxLedger)
        for (const settings of [{ latency_ms: -1 }, { failure_rate: 1.5 }, { outage: "yes" }, { latency: 5 }]) {
          expect(Either.isLeft(Schema.decodeUnknownEither(definition.settings)(settings))).toBe(true)
        }
        expect(Schema.decodeUnknownSync(definition.settings)({ latency_ms: 5 })).toEqual({
          latency_ms: 5,
          outage: false,
          failure_rate: 0,
          async_refunds: false,
          refund_delay_ms: 30_000
        })
      })))
  })

  describe("syncPayment", () => {
    it.effect("finds a charge by reference and by pspPaymentId", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const authorized = yield* connector.authorize(authorizeRequest("tok_threeDSecureRequired"))
        const id = pspIdOf(authorized)
        expect(yield* connector.syncPayment({ reference: "att_1", pspPaymentId: null })).toEqual(authorized)
        expect(yield* connector.syncPayment({ reference: "ignored", pspPaymentId: id })).toEqual(authorized)
      })))

    it.effect("reports Unknown for a reference the sandbox never saw", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        yield* connector.authorize(authorizeRequest("tok_visa"))
        expect(yield* connector.syncPayment({ reference: "att_never", pspPaymentId: null }))
          .toEqual(AuthorizationOutcome.Unknown())
        // Another connection's reference is not this connection's.
        const other = yield* sandbox({}, "pcn_other")
        expect(yield* other.connector.syncPayment({ reference: "att_1", pspPaymentId: null }))
          .toEqual(AuthorizationOutcome.Unknown())
      })))

    it.effect("follows the charge as it is captured or canceled", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const toCapture = yield* authorizeOnly(connector, "att_a")
        const toCancel = yield* authorizeOnly(connector, "att_b")
        yield* connector.capture({ reference: "cap", pspPaymentId: toCapture, amount: 1050, currency: EUR })
        yield* connector.cancel({ reference: "can", pspPaymentId: toCancel })
        expect(yield* connector.syncPayment({ reference: "att_a", pspPaymentId: null }))
          .toMatchObject({ _tag: "Authorized", captured: true, pspPaymentId: toCapture })
        expect(yield* connector.syncPayment({ reference: "att_b", pspPaymentId: null }))
          .toMatchObject({ _tag: "Refused", code: "canceled", retryable: false, pspPaymentId: toCancel })
      })))
  })

  describe("capture", () => {
    it.effect("captures part of an authorization and reports the amount captured", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const id = yield* authorizeOnly(connector)
        expect(yield* connector.capture({ reference: "cap_1", pspPaymentId: id, amount: 600, currency: EUR }))
          .toEqual(CaptureOutcome.Captured({ amount: 600 }))
        const stored = yield* chargeOf(id)
        expect([stored.status, stored.amountCaptured, stored.captureReference]).toEqual(["succeeded", 600, "cap_1"])
      })))

    it.effect("refuses to capture more than was authorized, or nothing", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const id = yield* authorizeOnly(connector)
        expect(yield* connector.capture({ reference: "cap_1", pspPaymentId: id, amount: 1051, currency: EUR }))
          .toMatchObject({ _tag: "Refused", code: "amount_too_large" })
        expect(yield* connector.capture({ reference: "cap_1", pspPaymentId: id, amount: 0, currency: EUR }))
          .toMatchObject({ _tag: "Refused", code: "amount_invalid" })
        const stored = yield* chargeOf(id)
        expect([stored.status, stored.amountCaptured]).toEqual(["authorized", 0])
      })))

    it.effect("answers a capture sent again under its reference with the first capture, whatever the amount", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const id = yield* authorizeOnly(connector)
        yield* connector.capture({ reference: "cap_1", pspPaymentId: id, amount: 600, currency: EUR })
        expect(yield* connector.capture({ reference: "cap_1", pspPaymentId: id, amount: 1000, currency: EUR }))
          .toEqual(CaptureOutcome.Captured({ amount: 600 }))
        expect(yield* connector.capture({ reference: "cap_2", pspPaymentId: id, amount: 100, currency: EUR }))
          .toMatchObject({ _tag: "Refused", code: "charge_already_captured" })
        expect((yield* chargeOf(id)).amountCaptured).toBe(600)
      })))

    it.effect("refuses charges that are not authorized, and charges it does not have", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const declined = pspIdOf(yield* connector.authorize(authorizeRequest("tok_chargeDeclined", { reference: "a" })))
        const challenged = pspIdOf(
          yield* connector.authorize(authorizeRequest("tok_threeDSecureRequired", { reference: "b" }))
        )
        for (const pspPaymentId of [declined, challenged]) {
          expect(yield* connector.capture({ reference: "cap", pspPaymentId, amount: 100, currency: EUR }))
            .toMatchObject({ _tag: "Refused", code: "charge_not_capturable" })
        }
        expect(yield* connector.capture({ reference: "cap", pspPaymentId: "ch_missing", amount: 100, currency: EUR }))
          .toMatchObject({ _tag: "Refused", code: "charge_not_found" })
        expect((yield* chargeOf(challenged)).status).toBe("requires_action")
      })))

    it.effect("does not touch another connection's charge", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const id = yield* authorizeOnly(connector)
        const other = (yield* sandbox({}, "pcn_other")).connector
        expect(yield* other.capture({ reference: "cap", pspPaymentId: id, amount: 100, currency: EUR }))
          .toMatchObject({ _tag: "Refused", code: "charge_not_found" })
        expect(yield* other.cancel({ reference: "can", pspPaymentId: id }))
          .toMatchObject({ _tag: "Refused", code: "charge_not_found" })
        expect(yield* other.refund({ reference: "re", pspPaymentId: id, amount: 1, currency: EUR, reason: null }))
          .toMatchObject({ _tag: "Failed", code: "charge_not_found" })
        expect((yield* chargeOf(id)).status).toBe("authorized")
      })))
  })

  describe("cancel", () => {
    it.effect("cancels an authorization", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const id = yield* authorizeOnly(connector)
        expect(yield* connector.cancel({ reference: "can", pspPaymentId: id })).toEqual(ModificationOutcome.Done())
        expect((yield* chargeOf(id)).status).toBe("canceled")
        // Canceling again is fine; capturing is not.
        expect(yield* connector.cancel({ reference: "can", pspPaymentId: id })).toEqual(ModificationOutcome.Done())
        expect(yield* connector.capture({ reference: "cap", pspPaymentId: id, amount: 100, currency: EUR }))
          .toMatchObject({ _tag: "Refused", code: "charge_not_capturable" })
        expect(yield* connector.cancel({ reference: "can", pspPaymentId: "ch_missing" }))
          .toMatchObject({ _tag: "Refused", code: "charge_not_found" })
      })))

    it.effect("cancels a charge waiting for its 3DS challenge", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const id = pspIdOf(yield* connector.authorize(authorizeRequest("tok_threeDSecureRequired")))
        expect(yield* connector.cancel({ reference: "can", pspPaymentId: id })).toEqual(ModificationOutcome.Done())
        expect((yield* chargeOf(id)).status).toBe("canceled")
      })))

    it.effect("refuses to cancel a captured charge", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const id = yield* charge(connector)
        expect(yield* connector.cancel({ reference: "can", pspPaymentId: id }))
          .toMatchObject({ _tag: "Refused", code: "charge_not_cancelable" })
        expect((yield* chargeOf(id)).status).toBe("succeeded")
      })))
  })

  describe("refund", () => {
    it.effect("refunds a captured charge, in parts, up to what was captured", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const id = yield* charge(connector)
        const first = yield* refund(connector, id, 1000, "ref_1")
        expect(first).toMatchObject({ _tag: "Succeeded" })
        expect(refundIdOf(first)).toMatch(/^re_/)
        expect(yield* refund(connector, id, 50, "ref_2")).toMatchObject({ _tag: "Succeeded" })
        expect((yield* chargeOf(id)).amountRefunded).toBe(1050)
      })))

    it.effect("refuses to refund more than is left", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const id = yield* charge(connector)
        yield* refund(connector, id, 1000, "ref_1")
        expect(yield* refund(connector, id, 51, "ref_2")).toMatchObject({ _tag: "Failed", code: "amount_too_large" })
        expect((yield* chargeOf(id)).amountRefunded).toBe(1000)
      })))

    it.effect("after a partial capture only the captured amount can be refunded", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const id = yield* authorizeOnly(connector)
        expect(yield* refund(connector, id, 100, "ref_0")).toMatchObject({
          _tag: "Failed",
          code: "charge_not_refundable"
        })
        yield* connector.capture({ reference: "cap", pspPaymentId: id, amount: 600, currency: EUR })
        expect(yield* refund(connector, id, 601, "ref_1")).toMatchObject({ _tag: "Failed", code: "amount_too_large" })
        expect(yield* refund(connector, id, 600, "ref_2")).toMatchObject({ _tag: "Succeeded" })
      })))

    it.effect("tok_refundFail charges fine but refuses every refund", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const outcome = yield* connector.authorize(authorizeRequest("tok_refundFail"))
        expect(outcome).toMatchObject({ _tag: "Authorized", captured: true, card: { last4: "5126" } })
        const id = pspIdOf(outcome)
        expect(yield* refund(connector, id, 100, "ref_1")).toMatchObject({ _tag: "Failed", code: "refund_declined" })
        expect((yield* chargeOf(id)).amountRefunded).toBe(0)
      })))

    it.effect("the same refund reference never refunds twice", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const id = yield* charge(connector)
        const first = yield* refund(connector, id, 400, "ref_1")
        const replay = yield* refund(connector, id, 400, "ref_1")
        expect(replay).toEqual(first)
        expect((yield* chargeOf(id)).amountRefunded).toBe(400)
      })))

    it.effect("syncRefund reports a refund by its reference", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const id = yield* charge(connector)
        const refundFail = yield* charge(connector, "tok_refundFail", "att_refund_fail")
        const succeeded = yield* refund(connector, id, 400, "ref_ok")
        const failed = yield* refund(connector, refundFail, 400, "ref_declined")

        expect(yield* connector.syncRefund({ reference: "ref_ok" })).toEqual(succeeded)
        expect(yield* connector.syncRefund({ reference: "ref_declined" })).toEqual(failed)
        expect(failed).toMatchObject({ _tag: "Failed", code: "refund_declined" })
        expect(yield* connector.syncRefund({ reference: "ref_never" })).toEqual(RefundOutcome.Unknown())
        const other = yield* sandbox({}, "pcn_other")
        expect(yield* other.connector.syncRefund({ reference: "ref_ok" })).toEqual(RefundOutcome.Unknown())
      })))
  })
})
