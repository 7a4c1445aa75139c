import { Effect } from "effect"
import { Failure } from "../../domain/payments/Payment.js"
import { RefundOutcome } from "../../domain/providers/ConnectorOutcomes.js"
import { failureMessage } from "../../domain/providers/FailureMessages.js"
import type { Refund } from "../../domain/refunds/Refund.js"
import type { Tenant } from "../../domain/Tenant.js"
import { Transactions } from "../../ports/Transactions.js"
import { PaymentCalls } from "../payments/PaymentCalls.js"
import { Payments } from "../payments/Payments.js"
import { RefundRecords } from "./RefundRecords.js"

/** Sending a refund to the PSP of its payment, and recording the PSP's answer once: steps of the refund pipelines. */

/** Records the PSP's answer once; a failure hands the reserved amount back to the payment. */
export const settleRefund = (tenant: Tenant, refundId: string, outcome: RefundOutcome) =>
  Effect.gen(function*() {
    const records = yield* RefundRecords
    const payments = yield* Payments
    return yield* (yield* Transactions).run(Effect.gen(function*() {
      const refund = yield* records.lock(tenant, refundId)
      if (refund.status !== "pending") return refund
      return yield* RefundOutcome.$match(outcome, {
        Succeeded: ({ pspRefundId }) => records.move(tenant, refund, "succeeded", { provider_refund_id: pspRefundId }),
        Pending: ({ pspRefundId }) => records.save(tenant, refund, { provider_refund_id: pspRefundId }),
        Failed: ({ code, message, pspRefundId }) =>
          Effect.zipRight(
            payments.releaseRefund(tenant, refund.payment_id, refund.amount),
            records.move(tenant, refund, "failed", {
              provider_refund_id: pspRefundId,
              failure: new Failure({ code, message })
            })
          ),
        Unknown: () => Effect.succeed(refund)
      })
    }))
  })

/** The payment a refund is of. */
export const refundedPaymentOf = (tenant: Tenant, refund: Refund) =>
  Effect.flatMap(Payments, (payments) => Effect.orDie(payments.retrieve(tenant, refund.payment_id)))

/**
 * Sends the refund under its own id as the PSP reference; an unreachable PSP gets one more try.
 * `resend` marks a refund that may already have reached the PSP: then "unreachable" proves nothing,
 * and the refund stays `pending`.
 */
export const sendRefund = (tenant: Tenant, refund: Refund, options: { readonly resend: boolean }) =>
  Effect.gen(function*() {
    const payment = yield* refundedPaymentOf(tenant, refund)
    const call = (yield* PaymentCalls).call(tenant, payment.provider, (connector) =>
      connector.refund({
        reference: refund.id,
        pspPaymentId: payment.provider_payment_id ?? "",
        amount: refund.amount,
        currency: refund.currency,
        reason: refund.reason
      }))
    let { result } = yield* call
    if (result._tag === "Unavailable" && options.resend) return refund
    // Unavailable means the PSP processed nothing, so the same reference is safe to send again.
    if (result._tag === "Unavailable") result = (yield* call).result
    if (result._tag === "NoAnswer") return refund
    const outcome = result._tag === "Unavailable"
      ? RefundOutcome.Failed({
        pspRefundId: null,
        code: "provider_unavailable",
        // Ours, without the reason: a reason can tell what answers (or not) behind a base_url.
        message: failureMessage("provider_unavailable")
      })
      : result.value
    return yield* settleRefund(tenant, refund.id, outcome)
  })
