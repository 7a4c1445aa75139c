import { Effect } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import { Failure } from "../payments/Payment.js"
import { PaymentAttempts } from "../payments/PaymentAttempts.js"
import { Payments } from "../payments/Payments.js"
import { Transactions } from "../ports/Transactions.js"
import { failureMessage } from "../providers/FailureMessages.js"
import { RefundOutcome } from "../providers/PaymentConnector.js"
import type { Refund } from "./Refund.js"
import { RefundRecords } from "./RefundRecords.js"

/** Sending a refund to the PSP of its payment, and recording the PSP's answer once. */
export const makeRefundSending = Effect.gen(function*() {
  const records = yield* RefundRecords
  const payments = yield* Payments
  const attempts = yield* PaymentAttempts
  const transactions = yield* Transactions

  /** Records the PSP's answer once; a failure hands the reserved amount back to the payment. */
  const settle = (tenant: Tenant, refundId: string, outcome: RefundOutcome) =>
    transactions.run(Effect.gen(function*() {
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

  const paymentOf = (tenant: Tenant, refund: Refund) => Effect.orDie(payments.retrieve(tenant, refund.payment_id))

  /**
   * Sends the refund under its own id as the PSP reference; an unreachable PSP gets one more try.
   * `resend` marks a refund that may already have reached the PSP: then "unreachable" proves nothing,
   * and the refund stays `pending`.
   */
  const send = (tenant: Tenant, refund: Refund, options: { readonly resend: boolean }) =>
    Effect.gen(function*() {
      const payment = yield* paymentOf(tenant, refund)
      const call = attempts.call(tenant, payment.provider, (connector) =>
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
      return yield* settle(tenant, refund.id, outcome)
    })

  return { settle, paymentOf, send }
})

export type RefundSending = Effect.Effect.Success<typeof makeRefundSending>
