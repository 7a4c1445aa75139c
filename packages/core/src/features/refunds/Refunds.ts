import { Context, Effect, Layer } from "effect"
import { noKey, type Running } from "../../domain/idempotency/KeyRun.js"
import type { AmountTooLarge, PaymentNotFound, PaymentNotRefundable } from "../../domain/payments/PaymentErrors.js"
import type { RefundOutcome } from "../../domain/providers/ConnectorOutcomes.js"
import type { CreateRefund, Refund } from "../../domain/refunds/Refund.js"
import type { RefundNotFound, RefundRefused } from "../../domain/refunds/RefundErrors.js"
import type { ResourceReads } from "../../domain/ResourceReads.js"
import type { Tenant } from "../../domain/Tenant.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import type { Job } from "../../ports/Jobs.js"
import { type RefundListFilter, type RefundRef, RefundsRepository } from "../../ports/RefundsRepository.js"
import { IdempotentRequests } from "../idempotency/IdempotentRequests.js"
import { PaymentCalls } from "../payments/PaymentCalls.js"
import { Payments } from "../payments/Payments.js"
import { createRefund, resumeRefund } from "./RefundCreation.js"
import { makeRefundReconciliation } from "./RefundReconciliation.js"
import { RefundRecords } from "./RefundRecords.js"
import { refundSteps } from "./RefundSteps.js"

export class Refunds extends Context.Tag("core/Refunds")<
  Refunds,
  ResourceReads<Refund, RefundNotFound, RefundListFilter> & {
    /**
     * Reserves the amount on the payment and writes the refund `pending` in one transaction (so two
     * concurrent refunds can never exceed what was captured), then asks the PSP. Under an
     * Idempotency-Key whose earlier run was cut short, it finishes the refund that run created.
     */
    readonly create: (
      tenant: Tenant,
      paymentId: string,
      input: CreateRefund,
      run?: Running
    ) => Effect.Effect<Refund, PaymentNotFound | PaymentNotRefundable | AmountTooLarge | RefundRefused>
    /** Finishes a refund whose request was cut short; the PSP sees the same reference again. */
    readonly resume: (tenant: Tenant, id: string) => Effect.Effect<Refund, RefundNotFound | RefundRefused>
    /**
     * Worker: settles a refund the PSP never answered. One it acknowledged (`provider_refund_id` set)
     * is asked about; one it never answered is sent again under its reference, so it happens once
     * whoever sends it.
     */
    readonly reconcile: (ref: RefundRef) => Effect.Effect<void>
    /**
     * A PSP's news of a refund, from connection `provider`: `foreign` when the refund is of a payment
     * made on another connection (nothing changes), `unknown` when no refund matches.
     */
    readonly applyReport: (
      tenant: Tenant,
      provider: string,
      reference: { readonly refundId: string | null; readonly pspRefundId: string | null },
      outcome: RefundOutcome
    ) => Effect.Effect<"applied" | "unknown" | "foreign">
    readonly jobs: ReadonlyArray<Job>
  }
>() {
  static readonly layer = Layer.scoped(Refunds, Effect.suspend(() => make)).pipe(
    Layer.provide(Layer.mergeAll(IdGenerator.layer, PaymentCalls.layer, Payments.layer, RefundRecords.layer, IdempotentRequests.layer))
  )
}

/**
 * The refunds service: creating (and resuming) a refund (`RefundCreation`) and settling the ones the
 * PSP answers later (`RefundReconciliation`), both sending and recording answers the same way
 * (`RefundSending`).
 */
const make = Effect.gen(function*() {
  const steps = yield* refundSteps
  const records = yield* RefundRecords
  const repository = yield* RefundsRepository
  const { applyReport, job, reconcile } = yield* makeRefundReconciliation
  return Refunds.of({
    create: (tenant, paymentId, input, run = noKey) => Effect.provide(createRefund(tenant, paymentId, input, run), steps),
    resume: (tenant, id) => Effect.provide(resumeRefund(tenant, id), steps),
    retrieve: (tenant, id) => records.load(tenant, id),
    list: (tenant, filter, page) => repository.list(tenant, filter, page),
    reconcile,
    applyReport,
    jobs: [job]
  })
})
