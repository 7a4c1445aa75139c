import { CaptureOutcome, ModificationOutcome, type PaymentConnector, RefundOutcome } from "@orchestrator/core"
import { Effect, Either } from "effect"
import { toAdyenValue } from "./AdyenAmounts.js"
import { type AdyenCall, read, refusal } from "./AdyenApi.js"
import { ModificationReceived } from "./AdyenResults.js"

/** Captures, cancels and refunds: Adyen answers `received` and settles them by notification (the port's `Pending`). */

const REFUND_REASONS: Readonly<Record<string, string>> = {
  duplicate: "DUPLICATE",
  fraudulent: "FRAUD",
  requested_by_customer: "CUSTOMER REQUEST"
}

/** Adyen's own references are 16 characters; ours stands in for one until Adyen assigns it. */
const isAdyenReference = (id: string) => /^[A-Z0-9]{16}$/.test(id)

/** A capture of `amount`, under our reference. */
export const adyenCapture = (call: AdyenCall): PaymentConnector["capture"] => ({ amount, currency, pspPaymentId, reference }) =>
  Effect.gen(function*() {
    const value = toAdyenValue(amount, currency)
    if (Either.isLeft(value)) return CaptureOutcome.Refused(value.left)
    const answer = yield* call(
      "capture",
      `/payments/${encodeURIComponent(pspPaymentId)}/captures`,
      (merchantAccount) => ({ merchantAccount, amount: { value: value.right, currency }, reference }),
      reference
    )
    if (answer._tag === "Failed") return CaptureOutcome.Refused(refusal(answer.error))
    yield* read(ModificationReceived, "capture")(answer.json)
    return CaptureOutcome.Pending()
  })

/** A cancel, by Adyen's reference or, before Adyen assigned one, by ours. */
export const adyenCancel = (call: AdyenCall): PaymentConnector["cancel"] => ({ pspPaymentId, reference }) =>
  Effect.gen(function*() {
    // Before Adyen assigned its reference (a redirect), the payment is canceled by ours.
    const answer = isAdyenReference(pspPaymentId)
      ? yield* call(
        "cancel",
        `/payments/${encodeURIComponent(pspPaymentId)}/cancels`,
        (merchantAccount) => ({ merchantAccount, reference }),
        reference
      )
      : yield* call(
        "cancel",
        "/cancels",
        (merchantAccount) => ({ merchantAccount, paymentReference: pspPaymentId, reference }),
        reference
      )
    if (answer._tag === "Failed") return ModificationOutcome.Refused(refusal(answer.error))
    yield* read(ModificationReceived, "cancel")(answer.json)
    return ModificationOutcome.Pending()
  })

/** A refund of `amount`, with Adyen's reason for ours when it has one. */
export const adyenRefund = (call: AdyenCall): PaymentConnector["refund"] => ({ amount, currency, pspPaymentId, reason, reference }) =>
  Effect.gen(function*() {
    const value = toAdyenValue(amount, currency)
    if (Either.isLeft(value)) return RefundOutcome.Failed({ pspRefundId: null, ...value.left })
    const answer = yield* call(
      "refund",
      `/payments/${encodeURIComponent(pspPaymentId)}/refunds`,
      (merchantAccount) => ({
        merchantAccount,
        amount: { value: value.right, currency },
        reference,
        ...(reason === null ? {} : { merchantRefundReason: REFUND_REASONS[reason] ?? "OTHER" })
      }),
      reference
    )
    if (answer._tag === "Failed") return RefundOutcome.Failed({ pspRefundId: null, ...refusal(answer.error) })
    const received = yield* read(ModificationReceived, "refund")(answer.json)
    return RefundOutcome.Pending({ pspRefundId: received.pspReference })
  })
