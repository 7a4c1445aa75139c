import {
  CaptureOutcome,
  ConnectorOutcomeUnknown,
  ModificationOutcome,
  type PaymentConnector
} from "@orchestrator/core/providers/PaymentConnector"
import { failureMessage } from "@orchestrator/core/providers/FailureMessages"
import { Effect, Either, Option } from "effect"
import { fromMollieAmount, toMollieAmount } from "./Amounts.js"
import { type MollieCall, path, read } from "./Api.js"
import { failureOfError } from "./Failures.js"
import { retrievePayment } from "./Payments.js"
import { Capture, REFERENCE_KEY } from "./Wire.js"

/** Captures (part of) an authorized payment under our reference; Mollie may settle the capture later (`pending`). */
export const mollieCapture = (call: MollieCall): PaymentConnector["capture"] => ({ amount, currency, pspPaymentId, reference }) =>
  Effect.gen(function*() {
    const value = toMollieAmount(amount, currency)
    if (Either.isLeft(value)) return CaptureOutcome.Refused(value.left)
    const answer = yield* call("create capture", {
      method: "POST",
      path: `/v2/payments/${path(pspPaymentId)}/captures`,
      idempotencyKey: reference,
      body: { amount: value.right, metadata: { [REFERENCE_KEY]: reference } }
    })
    if (answer._tag === "Failed") {
      const { code, message, providerMessage } = failureOfError(answer.error, "capture_failed")
      return CaptureOutcome.Refused({ code, message, providerMessage })
    }
    const capture = yield* read(Capture, "create capture")(answer.json)
    switch (capture.status) {
      case "succeeded": {
        const captured = capture.amount === undefined || capture.amount === null ? amount : fromMollieAmount(capture.amount)
        if (captured === undefined) return yield* new ConnectorOutcomeUnknown({ reason: "Mollie create capture: unreadable amount" })
        return CaptureOutcome.Captured({ amount: captured })
      }
      case "failed":
        return CaptureOutcome.Refused({
          code: "capture_failed",
          message: failureMessage("capture_failed"),
          providerMessage: "Mollie: the capture failed"
        })
      default:
        // `pending`: the payment turns `paid` when it succeeds, and Mollie calls the webhook.
        return CaptureOutcome.Pending()
    }
  })

/**
 * Cancels a payment: an authorized one by releasing its authorization (Mollie answers 202 and cancels
 * it shortly after: the port's `Pending`), an open one by `DELETE` (done at once).
 */
export const mollieCancel = (call: MollieCall): PaymentConnector["cancel"] => ({ pspPaymentId, reference }) =>
  Effect.gen(function*() {
    const payment = yield* retrievePayment(call, pspPaymentId)
    if (Option.isNone(payment)) {
      return ModificationOutcome.Refused({
        code: "invalid_request",
        message: failureMessage("invalid_request"),
        providerMessage: "Mollie has no such payment"
      })
    }
    if (payment.value.status === "canceled") return ModificationOutcome.Done()
    const authorized = payment.value.status === "authorized"
    const answer = authorized
      ? yield* call("release authorization", {
        method: "POST",
        path: `/v2/payments/${path(pspPaymentId)}/release-authorization`,
        idempotencyKey: reference,
        body: {}
      })
      : yield* call("cancel payment", { method: "DELETE", path: `/v2/payments/${path(pspPaymentId)}`, idempotencyKey: reference })
    if (answer._tag === "Failed") {
      const { code, message, providerMessage } = failureOfError(answer.error)
      return ModificationOutcome.Refused({ code, message, providerMessage })
    }
    return authorized ? ModificationOutcome.Pending() : ModificationOutcome.Done()
  })
