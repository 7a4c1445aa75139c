import { Context, Effect, Layer } from "effect"
import type { ResourceReads } from "../domain/ResourceReads.js"
import type { Tenant } from "../domain/Tenant.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import { Connectors } from "../providers/Connectors.js"
import { ProviderResolution } from "../providers/ProviderResolution.js"
import type { NoProviderAvailable, ProviderNotUsable } from "../providers/ProviderResolution.js"
import { makeCaptureAndCancel } from "./CaptureAndCancel.js"
import type { CancelPayment, CapturePayment, CreatePayment, Payment, PaymentListFilter } from "./Payment.js"
import { PaymentAttempts } from "./PaymentAttempts.js"
import { makePaymentCreation, type PaymentContext } from "./PaymentCreation.js"
import type {
  AmountTooLarge,
  PaymentCustomerNotFound,
  PaymentNotFound,
  PaymentNotRefundable,
  PaymentRefused,
  PaymentStateConflict,
  ProviderTimeout,
  ProviderUnavailable,
  ReturnUrlRequired
} from "./PaymentErrors.js"
import { PaymentRecords } from "./PaymentRecords.js"
import { makePaymentReturn } from "./PaymentReturn.js"
import { PaymentsRepository } from "./PaymentsRepository.js"
import { makeRefundBalance } from "./RefundBalance.js"

export type { PaymentContext } from "./PaymentCreation.js"

/** The payments operations the API offers, and the balance moves refunds make. */
export class Payments extends Context.Tag("core/Payments")<
  Payments,
  ResourceReads<Payment, PaymentNotFound, PaymentListFilter> & {
    /**
     * Writes the payment (`created`, then `processing` with its first attempt) in one transaction,
     * calls the PSP, and records the answer. Under an Idempotency-Key whose earlier run was cut short,
     * it finishes the payment that run created instead.
     */
    readonly create: (
      tenant: Tenant,
      input: CreatePayment,
      context?: PaymentContext
    ) => Effect.Effect<Payment, PaymentRefused | ReturnUrlRequired | ProviderNotUsable | NoProviderAvailable | PaymentCustomerNotFound>
    /**
     * Finishes a payment whose request was cut short (crash, 5xx): an unanswered attempt is sent again
     * under the same PSP reference, so the PSP answers it at most once.
     */
    readonly resume: (tenant: Tenant, id: string, context?: PaymentContext) => Effect.Effect<
      Payment,
      PaymentNotFound | PaymentRefused | ReturnUrlRequired
    >
    readonly capture: (tenant: Tenant, id: string, input: CapturePayment) => Effect.Effect<
      Payment,
      PaymentNotFound | PaymentStateConflict | AmountTooLarge | PaymentRefused | ProviderUnavailable | ProviderTimeout
    >
    readonly cancel: (tenant: Tenant, id: string, input: CancelPayment) => Effect.Effect<
      Payment,
      PaymentNotFound | PaymentStateConflict | PaymentRefused | ProviderUnavailable | ProviderTimeout
    >
    /**
     * The customer is back from the PSP's 3DS page: ask the PSP how it ended, handing it the return's
     * query parameters (`details`) when its connector finishes actions with them. Needs no tenant,
     * but the token of the payment's return URL: without a valid one, the payment is not found and
     * nothing is called. The PSP is asked at most once per payment in `RETURN_SYNC_INTERVAL`.
     */
    readonly returnFromAction: (
      id: string,
      token: string | undefined,
      details?: Readonly<Record<string, string>>
    ) => Effect.Effect<Payment, PaymentNotFound>
    /**
     * Inside the caller's transaction: takes `amount` (or all that is left) off the refundable balance
     * of a succeeded payment, so concurrent refunds can never exceed what was captured.
     */
    readonly reserveRefund: (tenant: Tenant, paymentId: string, amount: number | undefined) => Effect.Effect<
      { readonly payment: Payment; readonly amount: number },
      PaymentNotRefundable | AmountTooLarge
    >
    /** Inside the caller's transaction: gives back the amount of a refund that failed. */
    readonly releaseRefund: (tenant: Tenant, paymentId: string, amount: number) => Effect.Effect<Payment>
  }
>() {
  static readonly layer = Layer.effect(Payments, Effect.suspend(() => make)).pipe(
    Layer.provide(Layer.mergeAll(IdGenerator.layer, Connectors.layer, ProviderResolution.layer, PaymentRecords.layer, PaymentAttempts.layer))
  )
}

/**
 * The payments service, put together from its use cases: creating (and resuming) a payment
 * (`PaymentCreation`), capturing or canceling it (`CaptureAndCancel`), the customer's return from
 * 3D Secure (`PaymentReturn`), and the refundable balance refunds move (`RefundBalance`).
 */
const make = Effect.gen(function*() {
  const records = yield* PaymentRecords
  const repository = yield* PaymentsRepository
  const { create, resume } = yield* makePaymentCreation
  const { cancel, capture } = yield* makeCaptureAndCancel
  const { returnFromAction } = yield* makePaymentReturn
  const { releaseRefund, reserveRefund } = yield* makeRefundBalance
  return Payments.of({
    create,
    resume,
    retrieve: (tenant, id) => records.load(tenant, id),
    list: (tenant, filter, page) => repository.list(tenant, filter, page),
    capture,
    cancel,
    returnFromAction,
    reserveRefund,
    releaseRefund
  })
})
