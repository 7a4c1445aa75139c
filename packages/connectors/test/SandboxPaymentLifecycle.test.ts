import { describe, expect, it } from "@effect/vitest"
import { AuthorizationOutcome, CaptureOutcome, ModificationOutcome, RefundOutcome } from "@orchestrator/core"
import { Effect } from "effect"
import { authorizeRequest, chargeOf, EUR, sandbox, withLedger } from "./fixtures.js"
import { authorizeOnly, charge, pspIdOf, refund, refundIdOf } from "./sandboxCalls.js"

describe("SandboxConnector", () => {
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
