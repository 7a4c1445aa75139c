import { CaptureOutcome, ConnectorOutcomeUnknown, failureMessage, ModificationOutcome, type PaymentConnector } from "@orchestrator/core"
import { Effect, Either, Option } from "effect"
import { fromMollieAmount, toMollieAmount } from "./Amounts.js"
import { type MollieCall, path, read } from "./Api.js"
import { failureOfError } from "./Failures.js"
import { retrievePayment } from "./Payments.js"
import { Capture, CaptureList, REFERENCE_KEY, referenceOf } from "./Wire.js"

/** The capture made under our reference, among the payment's: what a repeated capture answers. */
const captureByReference = (call: MollieCall, pspPaymentId: string, reference: string) =>
  Effect.flatMap(
    call("list captures", { method: "GET", path: `/v2/payments/${path(pspPaymentId)}/captures`, query: { limit: "250" } }),
    (answer) =>
      answer._tag === "Failed"
        ? Effect.succeed(undefined)
        : Effect.map(
          read(CaptureList, "list captures")(answer.json),
          (list) => list._embedded.captures.find((capture) => referenceOf(capture.metadata) === reference)
        )
  )

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
    if (answer._tag === "Ok") return yield* outcomeOfCapture(yield* read(Capture, "create capture")(answer.json), amount)
    // Refused, perhaps because this capture was made before (under this reference, another amount): that one stands.
    const earlier = yield* captureByReference(call, pspPaymentId, reference)
    if (earlier !== undefined) return yield* outcomeOfCapture(earlier, amount)
    const { code, message, providerMessage } = failureOfError(answer.error, "capture_failed")
    return CaptureOutcome.Refused({ code, message, providerMessage })
  })

/** What a capture's status means: `succeeded` with its amount, `pending` settled later by the webhook. */
const outcomeOfCapture = (capture: Capture, asked: number) => {
  switch (capture.status) {
    case "succeeded": {
      const captured = capture.amount === undefined || capture.amount === null ? asked : fromMollieAmount(capture.amount)
      return captured === undefined
        ? Effect.fail(new ConnectorOutcomeUnknown({ reason: "Mollie create capture: unreadable amount" }))
        : Effect.succeed(CaptureOutcome.Captured({ amount: captured }))
    }
    case "failed":
      return Effect.succeed(CaptureOutcome.Refused({
        code: "capture_failed",
        message: failureMessage("capture_failed"),
        providerMessage: "Mollie: the capture failed"
      }))
    default:
      // `pending`: the payment turns `paid` when it succeeds, and Mollie calls the webhook.
      return Effect.succeed(CaptureOutcome.Pending())
  }
}

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
