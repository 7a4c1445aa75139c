import { Context, Effect, Either, Layer, Option, Schema } from "effect"
import { EventLog } from "../events/EventLog.js"
import { Failure, Payment } from "../payments/Payment.js"
import { AmountTooLarge, PaymentNotFound } from "../payments/PaymentErrors.js"
import { PaymentsRepository } from "../payments/PaymentsRepository.js"
import { callProvider } from "../providers/ProviderCall.js"
import { Connectors, RefundOutcome } from "../providers/PaymentConnector.js"
import { ProviderResolution } from "../providers/ProviderResolution.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import { now } from "../domain/Timestamp.js"
import { Transactions } from "../ports/Transactions.js"
import { type CreateRefund, Refund, type RefundStatus } from "./Refund.js"
import { PaymentNotRefundable, RefundNotFound, RefundRefused } from "./RefundErrors.js"
import { type RefundRef, RefundsRepository } from "./RefundsRepository.js"
import { RefundStateMachine } from "./RefundStateMachine.js"

export class Refunds extends Context.Tag("core/Refunds")<Refunds, {
  /**
   * Reserves the amount on the payment and writes the refund `pending` in one transaction (so two
   * concurrent refunds can never exceed what was captured), then asks the PSP.
   */
  readonly create: (
    tenant: Tenant,
    paymentId: string,
    input: CreateRefund,
    onCreated?: (refundId: string) => Effect.Effect<void>
  ) => Effect.Effect<Refund, PaymentNotFound | PaymentNotRefundable | AmountTooLarge | RefundRefused>
  /** Finishes a refund whose request was cut short; the PSP sees the same reference again. */
  readonly resume: (tenant: Tenant, id: string) => Effect.Effect<Refund, RefundNotFound | RefundRefused>
  readonly retrieve: (tenant: Tenant, id: string) => Effect.Effect<Refund, RefundNotFound>
  readonly list: (
    tenant: Tenant,
    filter: { readonly paymentId: string | undefined },
    page: PageRequest
  ) => Effect.Effect<Page<Refund>, InvalidCursor>
  /** Worker: settle a refund the PSP never answered, by asking or sending it again. */
  readonly reconcile: (ref: RefundRef) => Effect.Effect<void>
}>() {
  static readonly layer = Layer.effect(Refunds, Effect.suspend(() => make))
}

const make = Effect.gen(function*() {
  const refunds = yield* RefundsRepository
  const payments = yield* PaymentsRepository
  const transactions = yield* Transactions
  const events = yield* EventLog
  const ids = yield* IdGenerator
  const connectors = yield* Connectors
  const resolution = yield* ProviderResolution
  const encode = Schema.encodeSync(Refund)

  const load = (tenant: Tenant, id: string) =>
    refunds.find(tenant, id).pipe(
      Effect.flatMap(Option.match({ onNone: () => new RefundNotFound({ id }), onSome: Effect.succeed }))
    )

  const loadPayment = (tenant: Tenant, id: string) =>
    payments.find(tenant, id).pipe(
      Effect.flatMap(Option.match({ onNone: () => new PaymentNotFound({ id }), onSome: Effect.succeed }))
    )

  const lockPayment = (tenant: Tenant, id: string) =>
    payments.findForUpdate(tenant, id).pipe(Effect.map(Option.getOrThrow), Effect.orDie)

  const move = (tenant: Tenant, refund: Refund, to: RefundStatus, changes: Partial<Refund>) =>
    Effect.gen(function*() {
      const step = RefundStateMachine.move(refund.status, to)
      if (Either.isLeft(step)) return yield* Effect.die(step.left)
      const updated = new Refund({ ...refund, ...changes, status: to, updated_at: yield* now })
      yield* refunds.update(tenant, updated)
      yield* events.record(tenant, step.right.event, encode(updated))
      return updated
    })

  /** Records the PSP's answer once; a failure hands the reserved amount back to the payment. */
  const settle = (tenant: Tenant, refundId: string, outcome: RefundOutcome) =>
    transactions.run(Effect.gen(function*() {
      const snapshot = yield* load(tenant, refundId).pipe(Effect.orDie)
      // Payment first, then refund: the same lock order as `create`.
      const payment = yield* lockPayment(tenant, snapshot.payment_id)
      const refund = yield* refunds.findForUpdate(tenant, refundId).pipe(Effect.map(Option.getOrThrow), Effect.orDie)
      if (refund.status !== "pending") return refund
      return yield* RefundOutcome.$match(outcome, {
        Succeeded: ({ pspRefundId }) => move(tenant, refund, "succeeded", { provider_refund_id: pspRefundId }),
        Pending: ({ pspRefundId }) =>
          Effect.gen(function*() {
            const updated = new Refund({ ...refund, provider_refund_id: pspRefundId, updated_at: yield* now })
            yield* refunds.update(tenant, updated)
            return updated
          }),
        Failed: ({ code, message, pspRefundId }) =>
          Effect.gen(function*() {
            yield* payments.update(
              tenant,
              new Payment({
                ...payment,
                amount_refunded: payment.amount_refunded - refund.amount,
                updated_at: yield* now
              })
            )
            return yield* move(tenant, refund, "failed", {
              provider_refund_id: pspRefundId,
              failure: new Failure({ code, message })
            })
          }),
        Unknown: () => Effect.succeed(refund)
      })
    }))

  /**
   * Sends the refund under its own id as the PSP reference; an unreachable PSP gets one more try.
   * `resend` marks a refund that may already have reached the PSP: then "unreachable" proves nothing,
   * and the refund stays `pending`.
   */
  const drive = (tenant: Tenant, refund: Refund, options: { readonly resend: boolean }) =>
    Effect.gen(function*() {
      const payment = yield* loadPayment(tenant, refund.payment_id).pipe(Effect.orDie)
      const connector = connectors.forConnection(yield* resolution.byName(tenant, payment.provider))
      const send = callProvider(connector.refund({
        reference: refund.id,
        pspPaymentId: payment.provider_payment_id ?? "",
        amount: refund.amount,
        currency: refund.currency,
        reason: refund.reason
      }))
      let { result } = yield* send
      if (result._tag === "Unavailable" && options.resend) return refund
      // Unavailable means the PSP processed nothing, so the same reference is safe to send again.
      if (result._tag === "Unavailable") result = (yield* send).result
      if (result._tag === "NoAnswer") return refund
      const outcome = result._tag === "Unavailable"
        ? RefundOutcome.Failed({
          pspRefundId: null,
          code: "provider_unavailable",
          message: `The payment provider could not be reached: ${result.reason}`
        })
        : result.value
      return yield* settle(tenant, refund.id, outcome)
    })

  /** A failed refund, an outage included, is final and saved: 402 with the refund inside. */
  const finish = (refund: Refund) => refund.status === "failed" ? Effect.fail(new RefundRefused({ refund })) : Effect.succeed(refund)

  const create = Effect.fn("Refunds.create")(function*(
    tenant: Tenant,
    paymentId: string,
    input: CreateRefund,
    onCreated?: (refundId: string) => Effect.Effect<void>
  ) {
    yield* loadPayment(tenant, paymentId)
    const id = yield* ids.make("ref")
    const pending = yield* transactions.run(Effect.gen(function*() {
      const payment = yield* lockPayment(tenant, paymentId)
      if (payment.status !== "succeeded") {
        return yield* new PaymentNotRefundable({ payment, reason: "not_succeeded" })
      }
      const refundable = payment.amount_captured - payment.amount_refunded
      if (refundable <= 0) return yield* new PaymentNotRefundable({ payment, reason: "fully_refunded" })
      const amount = input.amount ?? refundable
      if (amount > refundable) return yield* new AmountTooLarge({ param: "amount", maximum: refundable })
      const createdAt = yield* now
      const refund = new Refund({
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
      yield* refunds.insert(tenant, refund)
      yield* events.record(tenant, "refund.pending", encode(refund))
      yield* payments.update(
        tenant,
        new Payment({ ...payment, amount_refunded: payment.amount_refunded + amount, updated_at: createdAt })
      )
      if (onCreated !== undefined) yield* onCreated(id)
      return refund
    }))
    return yield* finish(yield* drive(tenant, pending, { resend: false }))
  })

  const resume = Effect.fn("Refunds.resume")(function*(tenant: Tenant, id: string) {
    const refund = yield* load(tenant, id)
    const unsent = refund.status === "pending" && refund.provider_refund_id === null
    return yield* finish(unsent ? yield* drive(tenant, refund, { resend: true }) : refund)
  })

  /**
   * A refund the PSP acknowledged (`provider_refund_id` set) is asked about; one it never answered is
   * sent again under its reference, so it happens once whoever sends it.
   */
  const reconcile = Effect.fn("Refunds.reconcile")(function*(ref: RefundRef) {
    const refund = yield* load(ref.tenant, ref.refundId).pipe(Effect.orDie)
    if (refund.status !== "pending") return
    if (refund.provider_refund_id === null) {
      yield* drive(ref.tenant, refund, { resend: true })
      return
    }
    const payment = yield* loadPayment(ref.tenant, refund.payment_id).pipe(Effect.orDie)
    const connector = connectors.forConnection(yield* resolution.byName(ref.tenant, payment.provider))
    const { result } = yield* callProvider(connector.syncRefund({ reference: refund.id }))
    if (result._tag === "Answered" && result.value._tag !== "Unknown") yield* settle(ref.tenant, refund.id, result.value)
  })

  return Refunds.of({
    create,
    resume,
    retrieve: (tenant, id) => load(tenant, id),
    list: (tenant, filter, page) => refunds.list(tenant, filter, page),
    reconcile
  })
})
