import { Context, DateTime, Duration, Effect, Layer, Option } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import { now } from "../domain/Timestamp.js"
import { IdempotencyScope } from "../idempotency/IdempotencyScope.js"
import { Failure } from "../payments/Payment.js"
import { PaymentAttempts } from "../payments/PaymentAttempts.js"
import type { AmountTooLarge, PaymentNotFound, PaymentNotRefundable } from "../payments/PaymentErrors.js"
import { PaymentPolicy } from "../payments/PaymentPolicy.js"
import { Payments } from "../payments/Payments.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import type { Job } from "../ports/Jobs.js"
import { drainLeased } from "../ports/LeasedWork.js"
import { Transactions } from "../ports/Transactions.js"
import { failureMessage } from "../providers/FailureMessages.js"
import { RefundOutcome } from "../providers/PaymentConnector.js"
import { type CreateRefund, Refund } from "./Refund.js"
import { type RefundNotFound, RefundRefused } from "./RefundErrors.js"
import { RefundRecords } from "./RefundRecords.js"
import { type RefundRef, RefundsRepository } from "./RefundsRepository.js"

export class Refunds extends Context.Tag("core/Refunds")<Refunds, {
  /**
   * Reserves the amount on the payment and writes the refund `pending` in one transaction (so two
   * concurrent refunds can never exceed what was captured), then asks the PSP. Under an
   * Idempotency-Key whose earlier run was cut short, it finishes the refund that run created.
   */
  readonly create: (
    tenant: Tenant,
    paymentId: string,
    input: CreateRefund
  ) => Effect.Effect<Refund, PaymentNotFound | PaymentNotRefundable | AmountTooLarge | RefundRefused>
  /** Finishes a refund whose request was cut short; the PSP sees the same reference again. */
  readonly resume: (tenant: Tenant, id: string) => Effect.Effect<Refund, RefundNotFound | RefundRefused>
  readonly retrieve: (tenant: Tenant, id: string) => Effect.Effect<Refund, RefundNotFound>
  readonly list: (
    tenant: Tenant,
    filter: { readonly paymentId: string | undefined },
    page: PageRequest
  ) => Effect.Effect<Page<Refund>, InvalidCursor>
  /**
   * Worker: settles a refund the PSP never answered. One it acknowledged (`provider_refund_id` set)
   * is asked about; one it never answered is sent again under its reference, so it happens once
   * whoever sends it.
   */
  readonly reconcile: (ref: RefundRef) => Effect.Effect<void>
  /**
   * Applies what the PSP reported about a refund (a webhook), if the refund is still pending; false
   * when no refund of this tenant has this reference or PSP id (yet).
   */
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
}>() {
  static readonly layer = Layer.effect(Refunds, Effect.suspend(() => make))
}

const make = Effect.gen(function*() {
  const records = yield* RefundRecords
  const repository = yield* RefundsRepository
  const payments = yield* Payments
  const attempts = yield* PaymentAttempts
  const transactions = yield* Transactions
  const ids = yield* IdGenerator

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

  /** A failed refund, an outage included, is final and saved: 402 with the refund inside. */
  const conclude = (refund: Refund) =>
    refund.status === "failed" ? Effect.fail(new RefundRefused({ refund })) : Effect.succeed(refund)

  const resume = Effect.fn("Refunds.resume")(function*(tenant: Tenant, id: string) {
    const refund = yield* records.load(tenant, id)
    const unsent = refund.status === "pending" && refund.provider_refund_id === null
    return yield* conclude(unsent ? yield* send(tenant, refund, { resend: true }) : refund)
  })

  const create = Effect.fn("Refunds.create")(function*(tenant: Tenant, paymentId: string, input: CreateRefund) {
    const scope = yield* IdempotencyScope
    if (Option.isSome(scope.recovered)) {
      return yield* resume(tenant, scope.recovered.value).pipe(Effect.catchTag("RefundNotFound", Effect.die))
    }
    yield* payments.retrieve(tenant, paymentId)
    const id = yield* ids.make("ref")
    const pending = yield* transactions.run(Effect.gen(function*() {
      const { amount, payment } = yield* payments.reserveRefund(tenant, paymentId, input.amount)
      const createdAt = yield* now
      const refund = yield* records.create(
        tenant,
        new Refund({
          object: "refund",
          id,
          payment_id: payment.id,
          amount,
          currency: payment.currency,
          status: "pending",
          reason: input.reason ?? null,
          provider_refund_id: null,
          failure: null,
          metadata: input.metadata ?? {},
          created_at: createdAt,
          updated_at: createdAt,
          livemode: tenant.livemode
        })
      )
      yield* scope.attach(id)
      return refund
    }))
    return yield* conclude(yield* send(tenant, pending, { resend: false }))
  })

  const reconcile = Effect.fn("Refunds.reconcile")(function*(ref: RefundRef) {
    const refund = yield* Effect.orDie(records.load(ref.tenant, ref.refundId))
    if (refund.status !== "pending") return
    if (refund.provider_refund_id === null) {
      yield* send(ref.tenant, refund, { resend: true })
      return
    }
    const payment = yield* paymentOf(ref.tenant, refund)
    const { result } = yield* attempts.call(ref.tenant, payment.provider, (connector) =>
      connector.syncRefund({
        reference: refund.id,
        pspRefundId: refund.provider_refund_id,
        pspPaymentId: payment.provider_payment_id
      }))
    if (result._tag === "Answered" && result.value._tag !== "Unknown") yield* settle(ref.tenant, refund.id, result.value)
  })

  const reconcileDue = Effect.flatMap(PaymentPolicy, (policy) =>
    drainLeased({
      claim: (lease) =>
        repository.claimPending(DateTime.subtract(lease.now, { millis: Duration.toMillis(policy.reconcileAfter) }), lease),
      handle: ({ item }) => reconcile(item),
      leaseFor: policy.recoveryLease,
      concurrency: 4,
      maxPerPass: 200
    })).pipe(Effect.withSpan("Refunds.reconcileDue"))

  return Refunds.of({
    create,
    resume,
    retrieve: (tenant, id) => records.load(tenant, id),
    list: (tenant, filter, page) => repository.list(tenant, filter, page),
    reconcile,
    applyReport: (tenant, provider, reference, outcome) =>
      Effect.gen(function*() {
        const refund = yield* repository.findByReference(tenant, reference)
        if (Option.isNone(refund)) return "unknown" as const
        const payment = yield* paymentOf(tenant, refund.value)
        if (payment.provider !== provider) return "foreign" as const
        yield* settle(tenant, refund.value.id, outcome)
        return "applied" as const
      }),
    jobs: [{ name: "reconcile-refunds", every: "5 seconds", run: reconcileDue }]
  })
})
