import { CaptureOutcome, failureMessage, ModificationOutcome, type PaymentConnector, RefundOutcome } from "@orchestrator/core"
import { Effect, Either, Option } from "effect"
import { fromCheckoutComAmount, toCheckoutComAmount } from "./Amounts.js"
import { type CheckoutComCall, paymentPath, read } from "./Api.js"
import { retrieve } from "./Payments.js"
import { refusalOfError } from "./Refusals.js"
import { ActionAccepted, type PaymentAction, PaymentActions } from "./Wire.js"

/**
 * Captures, voids and refunds. Checkout.com answers each 202 with the `action_id` and carries it out
 * on its own; right after, the payment (or its actions) tells whether it is done already. If not,
 * the port's `Pending`: the webhook (`payment_captured`, `payment_voided`, `payment_refunded`) or a
 * later sync settles it. Each is sent under our reference as `Cko-Idempotency-Key`.
 */

/** Whether a payment's state shows the capture or void done; a failed look is no news, not a failure. */
const lookAtPayment = (call: CheckoutComCall, pspPaymentId: string) =>
  Effect.option(retrieve(call, pspPaymentId)).pipe(Effect.map(Option.flatMap(Option.fromNullable)))

const CAPTURED = new Set(["Captured", "Partially Captured", "Paid"])

/** A capture of `amount`; a capture sent before under this reference is answered as the first. */
export const checkoutComCapture = (call: CheckoutComCall): PaymentConnector["capture"] => ({ amount, currency, pspPaymentId, reference }) =>
  Effect.gen(function*() {
    const value = toCheckoutComAmount(amount, currency)
    if (Either.isLeft(value)) return CaptureOutcome.Refused(value.left)
    const answer = yield* call("capture", {
      method: "POST",
      path: `${paymentPath(pspPaymentId)}/captures`,
      body: { amount: value.right, reference },
      idempotencyKey: reference
    })
    if (answer._tag === "Failed") return CaptureOutcome.Refused(refusalOfError(answer.status, answer.error))
    yield* read(ActionAccepted, "capture")(answer.json)
    const now = Option.getOrUndefined(yield* lookAtPayment(call, pspPaymentId))
    const captured = now !== undefined && CAPTURED.has(now.status) ? now.balances?.total_captured ?? 0 : 0
    // What Checkout.com shows captured is what is recorded (a retry may have asked another amount).
    return now !== undefined && captured > 0
      ? CaptureOutcome.Captured({ amount: fromCheckoutComAmount(captured, now.currency) })
      : CaptureOutcome.Pending()
  })

/** A void of the authorization (Checkout.com's cancel). */
export const checkoutComVoid = (call: CheckoutComCall): PaymentConnector["cancel"] => ({ pspPaymentId, reference }) =>
  Effect.gen(function*() {
    const answer = yield* call("void", {
      method: "POST",
      path: `${paymentPath(pspPaymentId)}/voids`,
      body: { reference },
      idempotencyKey: reference
    })
    if (answer._tag === "Failed") return ModificationOutcome.Refused(refusalOfError(answer.status, answer.error))
    yield* read(ActionAccepted, "void")(answer.json)
    const now = yield* lookAtPayment(call, pspPaymentId)
    return Option.isSome(now) && now.value.status === "Voided" ? ModificationOutcome.Done() : ModificationOutcome.Pending()
  })

/** A refund action in the port's terms: approved, declined, or not processed yet. */
const outcomeOfRefundAction = (action: PaymentAction | undefined, pspRefundId: string) => {
  if (action === undefined || action.approved === undefined) return RefundOutcome.Pending({ pspRefundId })
  if (action.approved) return RefundOutcome.Succeeded({ pspRefundId: action.id })
  return RefundOutcome.Failed({
    pspRefundId: action.id,
    code: "refund_failed",
    message: failureMessage("refund_failed"),
    providerMessage: `${action.response_code} ${action.response_summary ?? ""}`.trim()
  })
}

/** The payment's actions; none when Checkout.com will not list them (the look is no news). */
const actionsOf = (call: CheckoutComCall, pspPaymentId: string) =>
  Effect.gen(function*() {
    const answer = yield* call("payment actions", { method: "GET", path: `${paymentPath(pspPaymentId)}/actions` })
    return answer._tag === "Ok" ? yield* read(PaymentActions, "payment actions")(answer.json) : undefined
  })

/** A refund of `amount`, our reason in its metadata (the refund request has no field for it). */
export const checkoutComRefund = (call: CheckoutComCall): PaymentConnector["refund"] => ({ amount, currency, pspPaymentId, reason, reference }) =>
  Effect.gen(function*() {
    const value = toCheckoutComAmount(amount, currency)
    if (Either.isLeft(value)) return RefundOutcome.Failed({ pspRefundId: null, ...value.left })
    const answer = yield* call("refund", {
      method: "POST",
      path: `${paymentPath(pspPaymentId)}/refunds`,
      body: { amount: value.right, reference, ...(reason === null ? {} : { metadata: { reason } }) },
      idempotencyKey: reference
    })
    if (answer._tag === "Failed") return RefundOutcome.Failed({ pspRefundId: null, ...refusalOfError(answer.status, answer.error) })
    const accepted = yield* read(ActionAccepted, "refund")(answer.json)
    const actions = yield* Effect.orElseSucceed(actionsOf(call, pspPaymentId), () => undefined)
    return outcomeOfRefundAction(actions?.find((action) => action.id === accepted.action_id), accepted.action_id)
  })

/** A refund found among its payment's actions, by Checkout.com's action id or by our reference. */
export const checkoutComSyncRefund = (call: CheckoutComCall): PaymentConnector["syncRefund"] => ({ pspPaymentId, pspRefundId, reference }) =>
  Effect.gen(function*() {
    if (pspPaymentId === undefined || pspPaymentId === null) return RefundOutcome.Unknown()
    const actions = yield* actionsOf(call, pspPaymentId)
    const found = actions?.find((action) => action.type === "Refund" && (action.id === pspRefundId || action.reference === reference))
    return found === undefined ? RefundOutcome.Unknown() : outcomeOfRefundAction(found, found.id)
  })
