import { Context, Effect, Layer } from "effect"
import type { IdempotencyKeyInUse, IdempotencyKeyReused } from "../../domain/idempotency/IdempotencyKey.js"
import type { KeyedAnswer, KeyedRequest, Running } from "../../domain/idempotency/KeyRun.js"
import type { CancelPayment, CapturePayment, CreatePayment, Payment, PaymentListFilter } from "../../domain/payments/Payment.js"
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
} from "../../domain/payments/PaymentErrors.js"
import type { AuthorizationOutcome } from "../../domain/providers/ConnectorOutcomes.js"
import type { ResourceReads } from "../../domain/ResourceReads.js"
import { NoProviderAvailable, type ProviderNotUsable } from "../../domain/routing/RoutingErrors.js"
import type { Tenant } from "../../domain/Tenant.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { PaymentsRepository } from "../../ports/PaymentsRepository.js"
import { Connectors } from "../connections/Connectors.js"
import { IdempotentRequests } from "../idempotency/IdempotentRequests.js"
import { ProviderResolution } from "../routing/ProviderResolution.js"
import { PaymentCalls } from "./PaymentCalls.js"
import { cancelPayment, capturePayment } from "./PaymentCapture.js"
import { createPayment, createPaymentUnderKey, type PaymentContext, resumePayment } from "./PaymentCreation.js"
import { PaymentRecords } from "./PaymentRecords.js"
import { makePaymentReturn } from "./PaymentReturn.js"
import { applyReport } from "./PaymentSettlement.js"
import { paymentSteps } from "./PaymentSteps.js"
import { releaseRefund, reserveRefund } from "./RefundBalance.js"

export type { PaymentContext } from "./PaymentCreation.js"

/** What a payment could not do because the PSP refused it or could not be reached. */
type Created =
  | PaymentRefused
  | ReturnUrlRequired
  | ProviderNotUsable
  | NoProviderAvailable
  | PaymentCustomerNotFound
type Unreachable = ProviderUnavailable | ProviderTimeout

/**
 * The payments operations the API offers, each a pipeline in a file of its own (`PaymentCreation`,
 * `PaymentCapture`, `PaymentReturn`), and what refunds and the PSPs' reports do to payments.
 */
export class Payments extends Context.Tag("core/Payments")<
  Payments,
  ResourceReads<Payment, PaymentNotFound, PaymentListFilter> & {
    /** Writes the payment (`created`, then `processing` with its first attempt) in one write, calls the PSP, records the answer. */
    readonly create: (tenant: Tenant, input: CreatePayment, context?: PaymentContext) => Effect.Effect<Payment, Created>
    /**
     * `create` under an Idempotency-Key: the answer as the key keeps it (a retry replays it, a
     * payment still `processing` as it stands now), and an earlier run cut short finished instead.
     */
    readonly createUnderKey: (
      tenant: Tenant,
      input: CreatePayment,
      keyed: KeyedRequest,
      context?: PaymentContext
    ) => Effect.Effect<KeyedAnswer, IdempotencyKeyInUse | IdempotencyKeyReused>
    /** Finishes a payment whose request was cut short: an unanswered attempt is sent again under its own PSP reference. */
    readonly resume: (tenant: Tenant, id: string, context?: PaymentContext) => Effect.Effect<Payment, PaymentNotFound | PaymentRefused | ReturnUrlRequired>
    readonly capture: (
      tenant: Tenant,
      id: string,
      input: CapturePayment,
      run?: Running
    ) => Effect.Effect<Payment, PaymentNotFound | PaymentStateConflict | AmountTooLarge | PaymentRefused | Unreachable>
    readonly cancel: (
      tenant: Tenant,
      id: string,
      input: CancelPayment,
      run?: Running
    ) => Effect.Effect<Payment, PaymentNotFound | PaymentStateConflict | PaymentRefused | Unreachable>
    /**
     * The customer is back from the PSP's 3DS page: ask the PSP how it ended, handing it the return's
     * query parameters (`details`) when its connector finishes actions with them. Needs no tenant,
     * but the token of the payment's return URL: without a valid one, the payment is not found and
     * nothing is called. The PSP is asked at most once per payment in `RETURN_SYNC_INTERVAL`.
     */
    readonly returnFromAction: (id: string, token: string | undefined, details?: Readonly<Record<string, string>>) => Effect.Effect<Payment, PaymentNotFound>
    /** What a PSP reported (a webhook) about attempt `attemptId`, applied where it is news. */
    readonly applyReport: (tenant: Tenant, payment: Payment, attemptId: string, outcome: AuthorizationOutcome) => Effect.Effect<Payment>
    /** Inside the caller's transaction: takes `amount` (or all that is left) off the refundable balance of a succeeded payment. */
    readonly reserveRefund: (tenant: Tenant, paymentId: string, amount: number | undefined) => Effect.Effect<
      { readonly payment: Payment; readonly amount: number },
      PaymentNotRefundable | AmountTooLarge
    >
    /** Inside the caller's transaction: gives back the amount of a refund that failed. */
    readonly releaseRefund: (tenant: Tenant, paymentId: string, amount: number) => Effect.Effect<Payment>
  }
>() {
  static readonly layer = Layer.effect(Payments, Effect.suspend(() => make)).pipe(
    Layer.provide(
      Layer.mergeAll(IdGenerator.layer, Connectors.layer, ProviderResolution.layer, PaymentRecords.layer, PaymentCalls.layer, IdempotentRequests.layer)
    )
  )
}

const make = Effect.gen(function*() {
  const steps = yield* paymentSteps
  const records = yield* PaymentRecords
  const repository = yield* PaymentsRepository
  const { returnFromAction } = yield* makePaymentReturn
  return Payments.of({
    create: (tenant, input, context) =>
      Effect.provide(createPayment(tenant, input, context), steps).pipe(
        // Checkout and billing take vaulted cards later (issue 35): until then a vault token they
        // cannot use says why, as no provider for it. The API's own create answers these failures as they are.
        Effect.catchTags({
          PaymentMethodNotFound: (failure) => new NoProviderAvailable({ reason: failure.answer.message }),
          PaymentMethodModeMismatch: (failure) => new NoProviderAvailable({ reason: failure.answer.message })
        })
      ),
    createUnderKey: (tenant, input, keyed, context) => Effect.provide(createPaymentUnderKey(tenant, input, keyed, context), steps),
    resume: (tenant, id, context) => Effect.provide(resumePayment(tenant, id, context), steps),
    retrieve: (tenant, id) => records.load(tenant, id),
    list: (tenant, filter, page) => repository.list(tenant, filter, page),
    capture: (tenant, id, input, run) => Effect.provide(capturePayment(tenant, id, input, run), steps),
    cancel: (tenant, id, input, run) => Effect.provide(cancelPayment(tenant, id, input, run), steps),
    returnFromAction: (id, token, details) => Effect.provide(returnFromAction(id, token, details), steps),
    applyReport: (tenant, payment, attemptId, outcome) => Effect.provide(applyReport(tenant, payment, attemptId, outcome), steps),
    reserveRefund: (tenant, paymentId, amount) => Effect.provide(reserveRefund(tenant, paymentId, amount), steps),
    releaseRefund: (tenant, paymentId, amount) => Effect.provide(releaseRefund(tenant, paymentId, amount), steps)
  })
})
