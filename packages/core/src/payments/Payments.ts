import { Context, Effect, Layer, Option } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import { now } from "../domain/Timestamp.js"
import { IdempotencyScope } from "../idempotency/IdempotencyScope.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import { Transactions } from "../ports/Transactions.js"
import { Connectors } from "../providers/Connectors.js"
import { type NoProviderAvailable, type ProviderNotUsable, ProviderResolution } from "../providers/ProviderResolution.js"
import { knownCardOf, routingFactsOf } from "../routing/PaymentFacts.js"
import { KeyMaterial } from "../tenancy/KeyMaterial.js"
import {
  awaitsOutcome,
  type CancelPayment,
  type CapturePayment,
  type CreatePayment,
  Payment,
  type PaymentListFilter,
  PaymentMethod,
  type PaymentStatus
} from "./Payment.js"
import { type SendContext, PaymentAttempts } from "./PaymentAttempts.js"
import {
  AmountTooLarge,
  PaymentNotFound,
  PaymentNotRefundable,
  PaymentRefused,
  PaymentStateConflict,
  ProviderUnreachable,
  type ReturnUrlRequired
} from "./PaymentErrors.js"
import { capturedStep } from "./PaymentOutcomes.js"
import { PaymentRecords } from "./PaymentRecords.js"
import { PaymentsRepository } from "./PaymentsRepository.js"
import { makeReturnSyncThrottle } from "./ReturnSyncThrottle.js"
import { claimSignedFor, unexpiredClaim } from "./ReturnToken.js"

/** How a payment is made beyond its API fields: by whom and for what (a renewal, a drop-in). */
export interface PaymentContext extends Partial<SendContext> {
  /** The customer is not there (a renewal); see `Payment.off_session`. */
  readonly offSession?: boolean
  /**
   * A 3D Secure challenge needs no return_url: without one the customer ends on the service's own
   * page ("you can close this window") and the payment waits in `requires_action`. For a
   * subscription's first charge, whose request has no return_url (the seed's CreateSubscription);
   * a plain payment without one is canceled and refused (422 `return_url_required`, decisions §4).
   */
  readonly closingPage?: boolean
}

const concludeOptionsOf = (context: PaymentContext | undefined) => ({ closingPage: context?.closingPage === true })

/** The payments operations the API offers, and the balance moves refunds make. */
export class Payments extends Context.Tag("core/Payments")<Payments, {
  /**
   * Writes the payment (`created`, then `processing` with its first attempt) in one transaction,
   * calls the PSP, and records the answer. Under an Idempotency-Key whose earlier run was cut short,
   * it finishes the payment that run created instead.
   */
  readonly create: (
    tenant: Tenant,
    input: CreatePayment,
    context?: PaymentContext
  ) => Effect.Effect<Payment, PaymentRefused | ReturnUrlRequired | ProviderNotUsable | NoProviderAvailable>
  /**
   * Finishes a payment whose request was cut short (crash, 5xx): an unanswered attempt is sent again
   * under the same PSP reference, so the PSP answers it at most once.
   */
  readonly resume: (tenant: Tenant, id: string, context?: PaymentContext) => Effect.Effect<
    Payment,
    PaymentNotFound | PaymentRefused | ReturnUrlRequired
  >
  readonly retrieve: (tenant: Tenant, id: string) => Effect.Effect<Payment, PaymentNotFound>
  readonly list: (
    tenant: Tenant,
    filter: PaymentListFilter,
    page: PageRequest
  ) => Effect.Effect<Page<Payment>, InvalidCursor>
  readonly capture: (tenant: Tenant, id: string, input: CapturePayment) => Effect.Effect<
    Payment,
    PaymentNotFound | PaymentStateConflict | AmountTooLarge | PaymentRefused | ProviderUnreachable
  >
  readonly cancel: (tenant: Tenant, id: string, input: CancelPayment) => Effect.Effect<
    Payment,
    PaymentNotFound | PaymentStateConflict | PaymentRefused | ProviderUnreachable
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
}>() {
  static readonly layer = Layer.effect(Payments, Effect.suspend(() => make))
}

const make = Effect.gen(function*() {
  const records = yield* PaymentRecords
  const attempts = yield* PaymentAttempts
  const repository = yield* PaymentsRepository
  const transactions = yield* Transactions
  const ids = yield* IdGenerator
  const resolution = yield* ProviderResolution
  const connectors = yield* Connectors
  const { returnSigning } = yield* KeyMaterial
  const returnSyncs = yield* makeReturnSyncThrottle

  /** Finishes a payment found as an earlier run left it: an unanswered attempt is sent again. */
  const finish = (tenant: Tenant, payment: Payment, context?: PaymentContext) =>
    Effect.gen(function*() {
      const open = payment.status === "processing" && awaitsOutcome(payment.attempts.at(-1))
      return yield* attempts.conclude(
        tenant,
        open ? yield* attempts.send(tenant, payment, { resend: true }) : payment,
        concludeOptionsOf(context)
      )
    })

  const resume = Effect.fn("Payments.resume")(function*(tenant: Tenant, id: string, context?: PaymentContext) {
    return yield* finish(tenant, yield* records.load(tenant, id), context)
  })

  const create = Effect.fn("Payments.create")(function*(tenant: Tenant, input: CreatePayment, context?: PaymentContext) {
    const scope = yield* IdempotencyScope
    if (Option.isSome(scope.recovered)) {
      const earlier = yield* Effect.option(records.load(tenant, scope.recovered.value))
      if (Option.isSome(earlier)) return yield* finish(tenant, earlier.value, context)
      // Attached in the transaction that created it, it would exist; reserved, the run before may
      // have stopped short of creating it, and this run creates it under that id.
      if (Option.isNone(scope.reserved)) return yield* Effect.dieMessage(`payment ${scope.recovered.value} vanished`)
    }
    const card = yield* knownCardOf(connectors, input.payment_method)
    const { connection, fallbacks, routing } = yield* resolution.forPayment(tenant, {
      provider: input.provider,
      ...routingFactsOf(input, card)
    })
    const id = Option.isSome(scope.reserved) ? scope.reserved.value : yield* ids.make("pay")
    const createdAt = yield* now
    const write = Effect.gen(function*() {
      const created = new Payment({
        object: "payment",
        id,
        status: "created",
        amount: input.amount,
        amount_captured: 0,
        amount_refunded: 0,
        currency: input.currency,
        provider: connection.name,
        provider_payment_id: null,
        routing,
        payment_method: new PaymentMethod({
          type: input.payment_method.type,
          token: input.payment_method.token,
          brand: card.brand,
          last4: card.last4,
          country: card.country
        }, true),
        customer_id: input.customer_id ?? null,
        description: input.description ?? null,
        metadata: input.metadata ?? {},
        capture: input.capture ?? true,
        off_session: context?.offSession ?? false,
        return_url: input.return_url ?? null,
        next_action: null,
        failure: null,
        attempts: [],
        created_at: createdAt,
        updated_at: createdAt,
        livemode: tenant.livemode
        // Made of the request the API validated; validated in full when the store encodes it (a
        // constructor that validates again costs a tenth of a millisecond per payment).
      }, true)
      // Created and sent in one write: the row starts as `processing`, with both events.
      return yield* records.createThrough(tenant, [
        created,
        new Payment({ ...created, status: "processing", attempts: [yield* attempts.newAttempt(connection.name)] }, true)
      ])
    })
    // Under a key that named this payment from the start, the write is all there is to commit (one
    // statement, where the store can); otherwise the key learns of it in the same transaction.
    const sent = Option.isSome(scope.reserved)
      ? yield* write
      : yield* transactions.run(Effect.tap(write, () => scope.attach(id)))
    const sendContext = context === undefined
      ? undefined
      : { browser: context.browser ?? null, storedCredential: context.storedCredential ?? "none" }
    return yield* attempts.conclude(
      tenant,
      yield* attempts.send(tenant, sent, {
        resend: false,
        connection,
        fallbacks,
        ...(sendContext ? { context: sendContext } : {})
      }),
      concludeOptionsOf(context)
    )
  })

  /**
   * A capture or cancel attaches the payment to its Idempotency-Key in the transaction that moves it:
   * a retry after a crash between that commit and the stored answer gets the payment, as the first
   * request would have, not a 409 for a move its own key already made.
   */
  const movedUnderThisKey = (tenant: Tenant, id: string) =>
    Effect.flatMap(IdempotencyScope, (scope) =>
      Option.isSome(scope.recovered) && scope.recovered.value === id
        ? Effect.map(records.load(tenant, id), Option.some)
        : Effect.succeed(Option.none<Payment>()))

  const capture = Effect.fn("Payments.capture")(function*(tenant: Tenant, id: string, input: CapturePayment) {
    const recovered = yield* movedUnderThisKey(tenant, id)
    if (Option.isSome(recovered)) return recovered.value
    const payment = yield* records.load(tenant, id)
    if (payment.status !== "requires_capture") return yield* new PaymentStateConflict({ payment, action: "capture" })
    const amount = input.amount ?? payment.amount
    if (amount > payment.amount) return yield* new AmountTooLarge({ param: "amount", maximum: payment.amount })
    const attempt = payment.attempts.at(-1)!
    const { result } = yield* attempts.call(tenant, attempt.provider, (connector) =>
      connector.capture({
        reference: `${attempt.id}_capture`,
        pspPaymentId: payment.provider_payment_id ?? attempt.id,
        amount,
        currency: payment.currency
      }))
    if (result._tag !== "Answered") {
      return yield* new ProviderUnreachable({ payment, timedOut: result._tag === "NoAnswer" })
    }
    switch (result.value._tag) {
      case "Refused":
        yield* attempts.keepProviderMessage(tenant, attempt.id, result.value.providerMessage)
        return yield* new PaymentRefused({ payment, code: result.value.code, message: result.value.message })
      case "Pending":
        // Accepted, confirmed later by the PSP: the payment waits for the news in `requires_capture`.
        return payment
      case "Captured": {
        // Record what the PSP captured, not what this request asked: a retry under the same reference
        // may have asked for another amount, and the PSP answers with the first capture.
        const captured = result.value.amount
        if (captured < 1 || captured > payment.amount) {
          return yield* Effect.dieMessage(`provider reported capturing ${captured} of a ${payment.amount} payment`)
        }
        const scope = yield* IdempotencyScope
        return yield* transactions.run(
          Effect.tap(
            records.moveIfStill(tenant, id, "requires_capture", "succeeded", (current) =>
              capturedStep(current, captured).changes),
            () => scope.attach(id)
          )
        )
      }
    }
  })

  const cancelable: ReadonlyArray<PaymentStatus> = ["created", "requires_action", "requires_capture"]

  const cancel = Effect.fn("Payments.cancel")(function*(tenant: Tenant, id: string, _input: CancelPayment) {
    const recovered = yield* movedUnderThisKey(tenant, id)
    if (Option.isSome(recovered)) return recovered.value
    const payment = yield* records.load(tenant, id)
    if (!cancelable.includes(payment.status)) return yield* new PaymentStateConflict({ payment, action: "cancel" })
    return yield* attempts.cancelNow(tenant, payment, null)
  })

  /** The tenant of the payment, when the token is ours for it and unexpired; read nothing for a token that cannot be. */
  const tenantByToken = (id: string, token: string | undefined) =>
    Effect.gen(function*() {
      const claim = yield* unexpiredClaim(token)
      if (claim === null) return Option.none<Tenant>()
      const tenant = yield* repository.tenantOf(id)
      if (Option.isNone(tenant)) return tenant
      return (yield* claimSignedFor(returnSigning, claim, id, tenant.value)) ? tenant : Option.none<Tenant>()
    })

  const returnFromAction = Effect.fn("Payments.returnFromAction")(function*(
    id: string,
    token: string | undefined,
    details: Readonly<Record<string, string>> = {}
  ) {
    const tenant = yield* tenantByToken(id, token).pipe(
      Effect.flatMap(Option.match({ onNone: () => new PaymentNotFound({ id }), onSome: Effect.succeed }))
    )
    const synced = yield* returnSyncs.run(id, syncOnReturn(tenant, id, details))
    return Option.isSome(synced) ? synced.value : yield* records.load(tenant, id)
  })

  /** What the PSP says about the payment the customer came back for, recorded if it moved on. */
  const syncOnReturn = (tenant: Tenant, id: string, details: Readonly<Record<string, string>>) =>
    Effect.gen(function*() {
      const payment = yield* records.load(tenant, id)
      const attempt = payment.attempts.at(-1)
      if (payment.status !== "requires_action" || attempt === undefined || Object.keys(details).length === 0) {
        return yield* attempts.refresh(tenant, payment)
      }
      // A PSP that finishes the action with the customer's return parameters (Adyen) gets them; any
      // other is asked how it ended, as without them.
      const { result } = yield* attempts.call(tenant, attempt.provider, (connector) =>
        connector.completeAction === undefined
          ? connector.syncPayment({ reference: attempt.id, pspPaymentId: payment.provider_payment_id })
          : connector.completeAction({
            reference: attempt.id,
            pspPaymentId: payment.provider_payment_id ?? attempt.id,
            amount: payment.amount,
            currency: payment.currency,
            capture: payment.capture,
            details
          }))
      if (result._tag !== "Answered") return payment
      return yield* attempts.applyReport(tenant, payment, attempt.id, result.value)
    })

  const reserveRefund = (tenant: Tenant, paymentId: string, requested: number | undefined) =>
    Effect.gen(function*() {
      const payment = yield* records.lock(tenant, paymentId)
      if (payment.status !== "succeeded") return yield* new PaymentNotRefundable({ payment, reason: "not_succeeded" })
      const refundable = payment.amount_captured - payment.amount_refunded
      if (refundable <= 0) return yield* new PaymentNotRefundable({ payment, reason: "fully_refunded" })
      const amount = requested ?? refundable
      if (amount > refundable) return yield* new AmountTooLarge({ param: "amount", maximum: refundable })
      const reserved = yield* records.save(tenant, payment, { amount_refunded: payment.amount_refunded + amount })
      return { payment: reserved, amount }
    })

  const releaseRefund = (tenant: Tenant, paymentId: string, amount: number) =>
    Effect.flatMap(records.lock(tenant, paymentId), (payment) =>
      records.save(tenant, payment, { amount_refunded: payment.amount_refunded - amount }))

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
