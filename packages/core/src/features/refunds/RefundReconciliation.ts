import { DateTime, Duration, Effect, Option } from "effect"
import { PaymentPolicy } from "../../domain/payments/PaymentPolicy.js"
import type { RefundOutcome } from "../../domain/providers/ConnectorOutcomes.js"
import type { Tenant } from "../../domain/Tenant.js"
import type { Job } from "../../ports/Jobs.js"
import { type RefundRef, RefundsRepository } from "../../ports/RefundsRepository.js"
import { drainLeased, makeLeasedPool } from "../jobs/LeasedDrain.js"
import { traced } from "../observability/Traced.js"
import { PaymentCalls } from "../payments/PaymentCalls.js"
import { RefundRecords } from "./RefundRecords.js"
import { refundedPaymentOf, sendRefund, settleRefund } from "./RefundSending.js"
import { type RefundSteps, refundSteps } from "./RefundSteps.js"

/**
 * Refunds the PSP answers later: the worker's pass over those still pending (asked about, or sent
 * again when never answered), and the PSP's own reports of them.
 */
export const makeRefundReconciliation = Effect.gen(function*() {
  const context = yield* refundSteps
  const steps = <A, E>(effect: Effect.Effect<A, E, RefundSteps>) => Effect.provide(effect, context)
  const records = yield* RefundRecords
  const repository = yield* RefundsRepository
  const calls = yield* PaymentCalls
  // The job's workers, shared by its passes (see `PaymentRecovery`).
  const pool = yield* makeLeasedPool((yield* PaymentPolicy).recoveryWorkers)

  const reconcile = Effect.fn("Refunds.reconcile")(function*(ref: RefundRef) {
    const refund = yield* Effect.orDie(records.load(ref.tenant, ref.refundId))
    if (refund.status !== "pending") return
    if (refund.provider_refund_id === null) {
      yield* steps(sendRefund(ref.tenant, refund, { resend: true }))
      return
    }
    const payment = yield* steps(refundedPaymentOf(ref.tenant, refund))
    const { result } = yield* calls.call(ref.tenant, payment.provider, (connector) =>
      connector.syncRefund({
        reference: refund.id,
        pspRefundId: refund.provider_refund_id,
        pspPaymentId: payment.provider_payment_id
      }))
    if (result._tag === "Answered" && result.value._tag !== "Unknown") yield* steps(settleRefund(ref.tenant, refund.id, result.value))
  })

  const reconcileDue = Effect.flatMap(PaymentPolicy, (policy) =>
    drainLeased({
      claim: (lease) => repository.claimPending(DateTime.subtract(lease.now, { millis: Duration.toMillis(policy.reconcileAfter) }), lease),
      // Its lease, kept once it is handled, spaces the looks at a refund out.
      handle: ({ item, token }) => Effect.ensuring(reconcile(item), repository.finishClaim(item.refundId, token)),
      leaseFor: policy.recoveryLease,
      concurrency: policy.recoveryWorkers,
      pool,
      share: policy.recoveryShare,
      pollEvery: "1 second",
      maxPerPass: 200
    })).pipe(traced("Refunds.reconcileDue"))

  const applyReport = (
    tenant: Tenant,
    provider: string,
    reference: { readonly refundId: string | null; readonly pspRefundId: string | null },
    outcome: RefundOutcome
  ) =>
    Effect.gen(function*() {
      const refund = yield* repository.findByReference(tenant, reference)
      if (Option.isNone(refund)) return "unknown" as const
      const payment = yield* steps(refundedPaymentOf(tenant, refund.value))
      if (payment.provider !== provider) return "foreign" as const
      yield* steps(settleRefund(tenant, refund.value.id, outcome))
      return "applied" as const
    })

  const job: Job = { name: "reconcile-refunds", every: "5 seconds", run: reconcileDue }

  return { reconcile, applyReport, job }
})
