import { CaptureOutcome, ConnectorOutcomeUnknown, failureMessage, ModificationOutcome, type PaymentConnector, RefundOutcome } from "@orchestrator/core"
import { Effect, Either, Option } from "effect"
import { fromPayPalMoney, toPayPalMoney } from "./Amounts.js"
import { path, type PayPalCall, read } from "./Api.js"
import { failureOf, issueOf } from "./Errors.js"
import { retrieveOrder } from "./Orders.js"
import { Capture, type Order, Refund } from "./Wire.js"

/**
 * Captures, voids and refunds (Payments v2). The payment's PSP id is its order's: the authorization
 * or capture they act on is read from the order first.
 */

const unexpected = (providerMessage: string) => ({
  code: "payment_intent_unexpected_state",
  message: failureMessage("payment_intent_unexpected_state"),
  providerMessage
})

const paymentsOf = (order: Order) => order.purchase_units?.[0]?.payments

/** The order, or why the operation cannot proceed: PayPal has none under this id. */
const orderOf = (call: PayPalCall, id: string) =>
  Effect.flatMap(
    retrieveOrder(call, id),
    Option.match({
      onNone: () => Effect.fail(new ConnectorOutcomeUnknown({ reason: "PayPal show order: no such order" })),
      onSome: Effect.succeed
    })
  )

/** Captures the order's authorization (intent AUTHORIZE) for `amount`, the final capture, under our reference. */
export const paypalCapture = (call: PayPalCall): PaymentConnector["capture"] => ({ amount, currency, pspPaymentId, reference }) =>
  Effect.gen(function*() {
    const money = toPayPalMoney(amount, currency)
    if (Either.isLeft(money)) return CaptureOutcome.Refused(money.left)
    const authorization = paymentsOf(yield* orderOf(call, pspPaymentId))?.authorizations?.[0]
    if (authorization === undefined) return CaptureOutcome.Refused(unexpected("the order has no authorization"))
    const answer = yield* call("capture authorization", {
      method: "POST",
      path: `/v2/payments/authorizations/${path(authorization.id)}/capture`,
      requestId: reference,
      body: { amount: money.right, final_capture: true }
    })
    if (answer._tag === "Failed") {
      const { code, message, providerMessage } = failureOf(answer.error, answer.status)
      return CaptureOutcome.Refused({
        code: code === "invalid_request" ? "capture_failed" : code,
        message: code === "invalid_request" ? failureMessage("capture_failed") : message,
        providerMessage
      })
    }
    const capture = yield* read(Capture, "capture authorization")(answer.json)
    switch (capture.status) {
      case "COMPLETED":
        return CaptureOutcome.Captured({ amount: capture.amount === undefined ? amount : fromPayPalMoney(capture.amount) ?? amount })
      case "PENDING":
        return CaptureOutcome.Pending()
      default:
        return CaptureOutcome.Refused({
          code: "capture_failed",
          message: failureMessage("capture_failed"),
          providerMessage: `the capture is ${capture.status ?? "without status"}`
        })
    }
  })

/**
 * Voids the order's authorization. An order never authorized (the payer did not approve, or it was
 * never completed) has nothing to void at PayPal: it expires there, and we never complete it.
 */
export const paypalCancel = (call: PayPalCall): PaymentConnector["cancel"] => ({ pspPaymentId }) =>
  Effect.gen(function*() {
    const order = yield* orderOf(call, pspPaymentId)
    const payments = paymentsOf(order)
    const authorization = payments?.authorizations?.[0]
    if (authorization === undefined) {
      return (payments?.captures?.length ?? 0) > 0
        ? ModificationOutcome.Refused({
          code: "charge_already_captured",
          message: failureMessage("charge_already_captured"),
          providerMessage: "the order is captured"
        })
        : ModificationOutcome.Done()
    }
    if (authorization.status === "VOIDED") return ModificationOutcome.Done()
    // PayPal documents no PayPal-Request-Id for a void: voiding twice answers PREVIOUSLY_VOIDED.
    const answer = yield* call("void authorization", {
      method: "POST",
      path: `/v2/payments/authorizations/${path(authorization.id)}/void`
    })
    if (answer._tag === "Ok" || issueOf(answer.error) === "PREVIOUSLY_VOIDED") return ModificationOutcome.Done()
    const { code, message, providerMessage } = failureOf(answer.error, answer.status)
    return ModificationOutcome.Refused({ code, message, providerMessage })
  })

/** A refund's status in the port's terms. */
export const outcomeOfRefund = (refund: Refund): RefundOutcome => {
  switch (refund.status) {
    case "COMPLETED":
      return RefundOutcome.Succeeded({ pspRefundId: refund.id })
    case "FAILED":
    case "CANCELLED":
      return RefundOutcome.Failed({
        pspRefundId: refund.id,
        code: refund.status === "FAILED" ? "refund_failed" : "refund_canceled",
        message: failureMessage(refund.status === "FAILED" ? "refund_failed" : "refund_canceled"),
        providerMessage: `the refund is ${refund.status}`
      })
    default:
      return RefundOutcome.Pending({ pspRefundId: refund.id })
  }
}

/** Refunds `amount` of the order's capture, under our reference (also its `custom_id`, which webhooks echo). */
export const paypalRefund = (call: PayPalCall): PaymentConnector["refund"] => ({ amount, currency, pspPaymentId, reference }) =>
  Effect.gen(function*() {
    const money = toPayPalMoney(amount, currency)
    if (Either.isLeft(money)) return RefundOutcome.Failed({ pspRefundId: null, ...money.left })
    const capture = paymentsOf(yield* orderOf(call, pspPaymentId))?.captures?.find((each) =>
      each.status === "COMPLETED" || each.status === "PARTIALLY_REFUNDED"
    )
    if (capture === undefined) return RefundOutcome.Failed({ pspRefundId: null, ...unexpected("the order has no completed capture") })
    const answer = yield* call("refund capture", {
      method: "POST",
      path: `/v2/payments/captures/${path(capture.id)}/refund`,
      requestId: reference,
      body: { amount: money.right, custom_id: reference }
    })
    if (answer._tag === "Ok") return outcomeOfRefund(yield* read(Refund, "refund capture")(answer.json))
    const { code, message, providerMessage } = failureOf(answer.error, answer.status)
    return RefundOutcome.Failed({
      pspRefundId: null,
      code: code === "invalid_request" ? "refund_failed" : code,
      message: code === "invalid_request" ? failureMessage("refund_failed") : message,
      providerMessage
    })
  })

/** The refund by its id; without one (the answer was lost) PayPal has no search: its webhook settles it. */
export const paypalSyncRefund = (call: PayPalCall): PaymentConnector["syncRefund"] => ({ pspRefundId }) =>
  Effect.gen(function*() {
    if (pspRefundId === null || pspRefundId === undefined) return RefundOutcome.Unknown()
    const answer = yield* call("show refund", { method: "GET", path: `/v2/payments/refunds/${path(pspRefundId)}` })
    if (answer._tag === "Ok") return outcomeOfRefund(yield* read(Refund, "show refund")(answer.json))
    if (answer.status === 404) return RefundOutcome.Unknown()
    return yield* new ConnectorOutcomeUnknown({ reason: `PayPal show refund: HTTP ${answer.status}` })
  })
