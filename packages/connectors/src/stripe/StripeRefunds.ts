import { ConnectorOutcomeUnknown, type PaymentConnector, RefundOutcome } from "@orchestrator/core"
import { Effect, Either } from "effect"
import { toStripeAmount } from "./StripeAmounts.js"
import { path, read, type StripeCall } from "./StripeApi.js"
import { failureOf } from "./StripeErrors.js"
import { outcomeOfRefund, REFERENCE_KEY, Refund, RefundList } from "./StripeObjects.js"

/** The `reason`s Stripe takes on a refund; any other stays in our records only. */
const REFUND_REASONS = new Set(["duplicate", "fraudulent", "requested_by_customer"])

/** Refunds an intent under our reference; a reason Stripe does not take stays in our records only. */
export const stripeRefund = (call: StripeCall): PaymentConnector["refund"] => ({ amount, currency, pspPaymentId, reason, reference }) =>
  Effect.gen(function*() {
    const stripeAmount = toStripeAmount(amount, currency)
    if (Either.isLeft(stripeAmount)) return RefundOutcome.Failed({ pspRefundId: null, ...stripeAmount.left })
    const answer = yield* call("create refund", {
      method: "POST",
      path: "/v1/refunds",
      idempotencyKey: reference,
      form: {
        payment_intent: pspPaymentId,
        amount: stripeAmount.right,
        reason: reason !== null && REFUND_REASONS.has(reason) ? reason : undefined,
        metadata: { [REFERENCE_KEY]: reference }
      }
    })
    if (answer._tag === "Ok") return outcomeOfRefund(yield* read(Refund, "create refund")(answer.json))
    const { code, message, providerMessage } = failureOf(answer.error, answer.status)
    return RefundOutcome.Failed({ pspRefundId: null, code, message, providerMessage })
  })

/** A refund by its id, or found by our reference among its payment's refunds. */
export const stripeSyncRefund = (call: StripeCall): PaymentConnector["syncRefund"] => ({ pspPaymentId, pspRefundId, reference }) =>
  Effect.gen(function*() {
    if (pspRefundId !== undefined && pspRefundId !== null) {
      const answer = yield* call("retrieve refund", { method: "GET", path: `/v1/refunds/${path(pspRefundId)}` })
      if (answer._tag === "Ok") return outcomeOfRefund(yield* read(Refund, "retrieve refund")(answer.json))
      if (answer.status === 404) return RefundOutcome.Unknown()
      return yield* new ConnectorOutcomeUnknown({ reason: `Stripe retrieve refund: ${answer.error.code ?? answer.status}` })
    }
    // Refunds have no search: list the payment's and find ours by its reference.
    if (pspPaymentId === undefined || pspPaymentId === null) return RefundOutcome.Unknown()
    const answer = yield* call("list refunds", {
      method: "GET",
      path: "/v1/refunds",
      query: { payment_intent: pspPaymentId, limit: "100" }
    })
    if (answer._tag === "Failed") {
      return answer.status === 404
        ? RefundOutcome.Unknown()
        : yield* new ConnectorOutcomeUnknown({ reason: `Stripe list refunds: ${answer.error.code ?? answer.status}` })
    }
    const found = (yield* read(RefundList, "list refunds")(answer.json)).data
      .find((refund) => refund.metadata?.[REFERENCE_KEY] === reference)
    return found === undefined ? RefundOutcome.Unknown() : outcomeOfRefund(found)
  })
