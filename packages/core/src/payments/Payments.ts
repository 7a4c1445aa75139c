import { Context, DateTime, Duration, Effect, Either, Layer, Option, Schema } from "effect"
import { EventLog } from "../events/EventLog.js"
import {
  type AuthorizationOutcome,
  AuthorizationOutcome as Outcome,
  type CardDetails,
  Connectors,
  type ModificationOutcome,
  type PaymentConnector
} from "../providers/PaymentConnector.js"
import { callProvider } from "../providers/ProviderCall.js"
import type { ProviderConnection } from "../providers/ProviderConnection.js"
import { type NoProviderAvailable, type ProviderNotUsable, ProviderResolution } from "../providers/ProviderResolution.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import { now } from "../domain/Timestamp.js"
import { Transactions } from "../ports/Transactions.js"
import { AttemptPolicy, PublicBaseUrl } from "./AttemptPolicy.js"
import {
  type CancelPayment,
  type CapturePayment,
  type CreatePayment,
  Failure,
  NextAction,
  Payment,
  PaymentAttempt,
  type PaymentListFilter,
  PaymentMethod,
  type PaymentStatus
} from "./Payment.js"
import {
  AmountTooLarge,
  PaymentNotFound,
  PaymentRefused,
  PaymentStateConflict,
  ProviderUnreachable,
  ReturnUrlRequired
} from "./PaymentErrors.js"
import { type PaymentRef, PaymentsRepository } from "./PaymentsRepository.js"
import { PaymentStateMachine } from "./PaymentStateMachine.js"

/** How a finished payment is reported: the payment itself, or the error that carries it. */
export type PaymentResult = Effect.Effect<Payment, PaymentRefused | ReturnUrlRequired>

export class Payments extends Context.Tag("core/Payments")<Payments, {
  /**
   * Writes the payment (`created`, then `processing` with its first attempt) in one transaction,
   * calls the PSP, and records the answer. `onCreated` runs inside that first transaction, which is
   * how an idempotency key learns which payment it produced.
   */
  readonly create: (
    tenant: Tenant,
    input: CreatePayment,
    onCreated?: (paymentId: string) => Effect.Effect<void>
  ) => Effect.Effect<Payment, PaymentRefused | ReturnUrlRequired | ProviderNotUsable | NoProviderAvailable>
  /**
   * Finishes a payment whose request was cut short (crash, 5xx): an unanswered attempt is sent again
   * under the same PSP reference, so the PSP answers it at most once.
   */
  readonly resume: (tenant: Tenant, id: string) => Effect.Effect<
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
  /** The customer is back from the PSP's 3DS page: ask the PSP how it ended. Needs no tenant. */
  readonly returnFromAction: (id: string) => Effect.Effect<Payment, PaymentNotFound>
  /**
   * Worker: ask the PSP about a payment waiting on the customer (3DS) or on a capture, record what the
   * PSP already did (a customer who completed 3DS and closed the tab, a capture whose answer was lost),
   * and release what waited past its lifetime.
   */
  readonly followUp: (ref: PaymentRef) => Effect.Effect<void>
  /** Worker: settle an attempt nobody heard back from, by sending it again under its reference. */
  readonly reconcile: (ref: PaymentRef) => Effect.Effect<void>
}>() {
  static readonly layer = Layer.effect(Payments, Effect.suspend(() => make))
}

const noCard: CardDetails = { brand: null, last4: null, country: null }

const make = Effect.gen(function*() {
  const repository = yield* PaymentsRepository
  const transactions = yield* Transactions
  const events = yield* EventLog
  const ids = yield* IdGenerator
  const connectors = yield* Connectors
  const resolution = yield* ProviderResolution
  const baseUrl = yield* PublicBaseUrl
  const encode = Schema.encodeSync(Payment)

  const load = (tenant: Tenant, id: string) =>
    repository.find(tenant, id).pipe(
      Effect.flatMap(Option.match({ onNone: () => new PaymentNotFound({ id }), onSome: Effect.succeed }))
    )

  // Rows read for update always exist: they were found before the transaction began.
  const lock = (tenant: Tenant, id: string) =>
    repository.findForUpdate(tenant, id).pipe(Effect.map(Option.getOrThrow), Effect.orDie)

  /** The only way a payment's status changes: checked against the table, saved with its event. */
  const move = (tenant: Tenant, payment: Payment, to: PaymentStatus, changes: Partial<Payment> = {}) =>
    Effect.gen(function*() {
      const step = PaymentStateMachine.move(payment.status, to)
      if (Either.isLeft(step)) return yield* Effect.die(step.left)
      const updated = new Payment({ ...payment, ...changes, status: to, updated_at: yield* now })
      yield* repository.update(tenant, updated)
      yield* events.record(tenant, step.right.event, encode(updated))
      return updated
    })

  /** Moves the payment if, once locked, it is still `from`: otherwise someone else already moved it. */
  const moveIfStill = (
    tenant: Tenant,
    id: string,
    from: PaymentStatus,
    to: PaymentStatus,
    changes: (current: Payment) => Partial<Payment>
  ) =>
    transactions.run(Effect.gen(function*() {
      const current = yield* lock(tenant, id)
      return current.status === from ? yield* move(tenant, current, to, changes(current)) : current
    }))

  const replaceAttempt = (payment: Payment, id: string, changes: Partial<PaymentAttempt>) =>
    payment.attempts.map((attempt) => attempt.id === id ? new PaymentAttempt({ ...attempt, ...changes }) : attempt)

  const newAttempt = (provider: string) =>
    Effect.gen(function*() {
      return new PaymentAttempt({
        object: "payment_attempt",
        id: yield* ids.make("att"),
        provider,
        status: "pending",
        provider_payment_id: null,
        error_code: null,
        latency_ms: null,
        created_at: yield* now
      })
    })

  const withCard = (method: PaymentMethod, card: CardDetails) =>
    new PaymentMethod({
      ...method,
      brand: card.brand ?? method.brand,
      last4: card.last4 ?? method.last4,
      country: card.country ?? method.country
    })

  const connectorFor = (tenant: Tenant, payment: Payment) =>
    Effect.map(resolution.byName(tenant, payment.provider), (connection) => connectors.forConnection(connection))

  const authorize = (connector: PaymentConnector, payment: Payment, attempt: PaymentAttempt) =>
    callProvider(connector.authorize({
      reference: attempt.id,
      paymentId: payment.id,
      amount: payment.amount,
      currency: payment.currency,
      paymentMethod: { type: payment.payment_method.type, token: payment.payment_method.token },
      capture: payment.capture,
      returnUrl: `${baseUrl}/v1/payments/${payment.id}/return`,
      description: payment.description,
      customerId: payment.customer_id
    }))

  /**
   * Records the PSP's answer to an attempt, if nobody recorded one first: the request, the 3DS return
   * and the worker may all learn the outcome, and only the first one moves the payment.
   */
  const settle = (
    tenant: Tenant,
    paymentId: string,
    attemptId: string,
    outcome: AuthorizationOutcome,
    latencyMs: number | null
  ) =>
    transactions.run(Effect.gen(function*() {
      let payment = yield* lock(tenant, paymentId)
      const attempt = payment.attempts.find((candidate) => candidate.id === attemptId)
      const awaiting = attempt !== undefined &&
        ((payment.status === "processing" && attempt.status === "pending") ||
          (payment.status === "requires_action" && attempt.status === "requires_action"))
      if (!awaiting) return payment
      const latency = latencyMs ?? attempt.latency_ms
      if (payment.status === "requires_action") payment = yield* move(tenant, payment, "processing", { next_action: null })
      return yield* Outcome.$match(outcome, {
        Authorized: ({ amountCaptured, captured, card, pspPaymentId }) =>
          move(tenant, payment, captured ? "succeeded" : "requires_capture", {
            provider_payment_id: pspPaymentId,
            amount_captured: captured ? amountCaptured : 0,
            payment_method: withCard(payment.payment_method, card),
            attempts: replaceAttempt(payment, attemptId, {
              status: captured ? "succeeded" : "requires_capture",
              provider_payment_id: pspPaymentId,
              latency_ms: latency
            })
          }),
        ActionRequired: ({ card, pspPaymentId, redirectUrl }) =>
          move(tenant, payment, "requires_action", {
            provider_payment_id: pspPaymentId,
            next_action: new NextAction({ type: "redirect", url: redirectUrl }),
            payment_method: withCard(payment.payment_method, card),
            attempts: replaceAttempt(payment, attemptId, {
              status: "requires_action",
              provider_payment_id: pspPaymentId,
              latency_ms: latency
            })
          }),
        Refused: ({ card, code, message, pspPaymentId }) =>
          move(tenant, payment, "failed", {
            provider_payment_id: pspPaymentId ?? payment.provider_payment_id,
            failure: new Failure({ code, message }),
            payment_method: withCard(payment.payment_method, card),
            attempts: replaceAttempt(payment, attemptId, {
              status: "failed",
              provider_payment_id: pspPaymentId,
              error_code: code,
              latency_ms: latency
            })
          }),
        Unknown: () => Effect.succeed(payment)
      })
    }))

  /** A failed attempt worth retrying: close it and open the next one, in one transaction. */
  const retryWith = (tenant: Tenant, paymentId: string, attemptId: string, code: string, latencyMs: number) =>
    transactions.run(Effect.gen(function*() {
      const payment = yield* lock(tenant, paymentId)
      const current = payment.attempts.at(-1)
      if (payment.status !== "processing" || current?.id !== attemptId || current.status !== "pending") {
        return Option.none<Payment>()
      }
      const next = yield* newAttempt(payment.provider)
      const updated = new Payment({
        ...payment,
        attempts: [
          ...replaceAttempt(payment, attemptId, { status: "failed", error_code: code, latency_ms: latencyMs }),
          next
        ],
        updated_at: yield* now
      })
      yield* repository.update(tenant, updated)
      return Option.some(updated)
    }))

  const unavailable = (reason: string) =>
    Outcome.Refused({
      pspPaymentId: null,
      code: "provider_unavailable",
      message: `The payment provider could not be reached: ${reason}`,
      retryable: true,
      card: noCard
    })

  /**
   * Sends the payment's open attempt, retrying retryable failures as the policy says, and records the
   * end. `resend` marks an attempt that may already have reached the PSP (resume, reconciliation): then
   * "unreachable" proves nothing about the first send, so the payment stays `processing`.
   */
  const drive = (
    tenant: Tenant,
    start: Payment,
    options: { readonly resend: boolean; readonly connection?: ProviderConnection }
  ) =>
    Effect.gen(function*() {
      const policy = yield* AttemptPolicy
      const connector = options.connection === undefined
        ? yield* connectorFor(tenant, start)
        : connectors.forConnection(options.connection)
      let payment = start
      let resend = options.resend
      while (true) {
        const attempt = payment.attempts.at(-1)!
        const { latencyMs, result } = yield* authorize(connector, payment, attempt)
        // No answer: the PSP may have charged. Stay `processing`; reconciliation will find out.
        if (result._tag === "NoAnswer" || (resend && result._tag === "Unavailable")) return payment
        resend = false
        const outcome = result._tag === "Unavailable" ? unavailable(result.reason) : result.value
        const triesHere = payment.attempts.filter((each) => each.provider === payment.provider).length
        if (
          outcome._tag === "Refused" && policy.retryableCodes.includes(outcome.code) &&
          triesHere < policy.attemptsPerConnection
        ) {
          const next = yield* retryWith(tenant, payment.id, attempt.id, outcome.code, latencyMs)
          if (Option.isSome(next)) {
            payment = next.value
            continue
          }
          return yield* load(tenant, payment.id).pipe(Effect.orDie)
        }
        return yield* settle(tenant, payment.id, attempt.id, outcome, latencyMs)
      }
    })

  const cancelAtProvider = (tenant: Tenant, payment: Payment) =>
    Effect.gen(function*() {
      const connector = yield* connectorFor(tenant, payment)
      const attempt = payment.attempts.at(-1)!
      return yield* callProvider(connector.cancel({
        reference: `${attempt.id}_cancel`,
        pspPaymentId: payment.provider_payment_id ?? attempt.id
      }))
    })

  /** Cancels a payment whose status was checked by the caller; the PSP is asked first when it holds money. */
  const cancelNow = (tenant: Tenant, payment: Payment, failure: Failure | null) =>
    Effect.gen(function*() {
      if (payment.status !== "created") {
        const { result } = yield* cancelAtProvider(tenant, payment)
        if (result._tag !== "Answered") {
          return yield* new ProviderUnreachable({ payment, timedOut: result._tag === "NoAnswer" })
        }
        const answer: ModificationOutcome = result.value
        if (answer._tag === "Refused") {
          return yield* new PaymentRefused({ payment, code: answer.code, message: answer.message })
        }
      }
      return yield* moveIfStill(tenant, payment.id, payment.status, "canceled", (current) => {
        const last = current.attempts.at(-1)
        return {
          next_action: null,
          failure,
          attempts: last === undefined ? current.attempts : replaceAttempt(current, last.id, { status: "canceled" })
        }
      })
    })

  /** Turns where a payment ended into the answer of `create`/`resume`. */
  const finish = (tenant: Tenant, payment: Payment): PaymentResult =>
    Effect.gen(function*() {
      if (payment.status === "requires_action" && payment.return_url === null) {
        const canceled = yield* cancelNow(
          tenant,
          payment,
          new Failure({
            code: "return_url_required",
            message: "The provider requires customer authentication (3D Secure), which needs a return_url."
          })
        ).pipe(Effect.catchAll(() => Effect.succeed(payment)))
        return yield* new ReturnUrlRequired({ payment: canceled })
      }
      if (payment.status === "canceled" && payment.failure?.code === "return_url_required") {
        return yield* new ReturnUrlRequired({ payment })
      }
      // A failure is final and saved, an outage included: the money did not move, and a new payment
      // (new key) is how to try again. 502/504 are kept for calls that change nothing here.
      if (payment.status === "failed" && payment.failure !== null) {
        return yield* new PaymentRefused({ payment, code: payment.failure.code, message: payment.failure.message })
      }
      return payment
    })

  const create = Effect.fn("Payments.create")(function*(
    tenant: Tenant,
    input: CreatePayment,
    onCreated?: (paymentId: string) => Effect.Effect<void>
  ) {
    const connection: ProviderConnection = yield* resolution.forPayment(tenant, {
      provider: input.provider,
      currency: input.currency,
      method: input.payment_method.type
    })
    const id = yield* ids.make("pay")
    const createdAt = yield* now
    const sent = yield* transactions.run(Effect.gen(function*() {
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
        payment_method: new PaymentMethod({
          type: input.payment_method.type,
          token: input.payment_method.token,
          brand: input.payment_method.brand ?? null,
          last4: input.payment_method.last4 ?? null,
          country: input.payment_method.country?.toUpperCase() ?? null
        }),
        customer_id: input.customer_id ?? null,
        description: input.description ?? null,
        metadata: input.metadata ?? {},
        capture: input.capture ?? true,
        return_url: input.return_url ?? null,
        next_action: null,
        failure: null,
        attempts: [],
        created_at: createdAt,
        updated_at: createdAt,
        livemode: tenant.livemode
      })
      yield* repository.insert(tenant, created)
      yield* events.record(tenant, "payment.created", encode(created))
      const processing = yield* move(tenant, created, "processing", { attempts: [yield* newAttempt(connection.name)] })
      if (onCreated !== undefined) yield* onCreated(id)
      return processing
    }))
    return yield* finish(tenant, yield* drive(tenant, sent, { resend: false, connection }))
  })

  const resume = Effect.fn("Payments.resume")(function*(tenant: Tenant, id: string) {
    const payment = yield* load(tenant, id)
    const open = payment.status === "processing" && payment.attempts.at(-1)?.status === "pending"
    return yield* finish(tenant, open ? yield* drive(tenant, payment, { resend: true }) : payment)
  })

  const capture = Effect.fn("Payments.capture")(function*(tenant: Tenant, id: string, input: CapturePayment) {
    const payment = yield* load(tenant, id)
    if (payment.status !== "requires_capture") return yield* new PaymentStateConflict({ payment, action: "capture" })
    const amount = input.amount ?? payment.amount
    if (amount > payment.amount) return yield* new AmountTooLarge({ param: "amount", maximum: payment.amount })
    const connector = yield* connectorFor(tenant, payment)
    const attempt = payment.attempts.at(-1)!
    const { result } = yield* callProvider(connector.capture({
      reference: `${attempt.id}_capture`,
      pspPaymentId: payment.provider_payment_id ?? attempt.id,
      amount,
      currency: payment.currency
    }))
    if (result._tag !== "Answered") {
      return yield* new ProviderUnreachable({ payment, timedOut: result._tag === "NoAnswer" })
    }
    if (result.value._tag === "Refused") {
      return yield* new PaymentRefused({ payment, code: result.value.code, message: result.value.message })
    }
    // Record what the PSP captured, not what this request asked: a retry under the same reference may
    // have asked for another amount, and the PSP answers with the first capture.
    const captured = result.value.amount
    if (captured < 1 || captured > payment.amount) {
      return yield* Effect.dieMessage(`provider reported capturing ${captured} of a ${payment.amount} payment`)
    }
    return yield* moveIfStill(tenant, id, "requires_capture", "succeeded", (current) => ({
      amount_captured: captured,
      attempts: replaceAttempt(current, attempt.id, { status: "succeeded" })
    }))
  })

  const cancel = Effect.fn("Payments.cancel")(function*(tenant: Tenant, id: string, _input: CancelPayment) {
    const payment = yield* load(tenant, id)
    const cancelable: ReadonlyArray<PaymentStatus> = ["created", "requires_action", "requires_capture"]
    if (!cancelable.includes(payment.status)) return yield* new PaymentStateConflict({ payment, action: "cancel" })
    return yield* cancelNow(tenant, payment, null)
  })

  /** What the PSP says now about a payment waiting on the customer or a capture, recorded if it moved on. */
  const refresh = (tenant: Tenant, payment: Payment) =>
    Effect.gen(function*() {
      if (payment.status !== "requires_action" && payment.status !== "requires_capture") return payment
      const connector = yield* connectorFor(tenant, payment)
      const attempt = payment.attempts.at(-1)!
      const { result } = yield* callProvider(connector.syncPayment({
        reference: attempt.id,
        pspPaymentId: payment.provider_payment_id
      }))
      // Unreachable, still waiting on the customer, or unknown: nothing to record yet.
      if (result._tag !== "Answered") return payment
      const outcome = result.value
      if (payment.status === "requires_action") {
        return outcome._tag === "ActionRequired" || outcome._tag === "Unknown"
          ? payment
          : yield* settle(tenant, payment.id, attempt.id, outcome, null)
      }
      // An authorization the PSP says was captured, or released, since.
      if (outcome._tag === "Authorized" && outcome.captured) {
        return yield* moveIfStill(tenant, payment.id, "requires_capture", "succeeded", (current) => ({
          amount_captured: outcome.amountCaptured,
          attempts: replaceAttempt(current, attempt.id, { status: "succeeded" })
        }))
      }
      if (outcome._tag === "Refused") {
        return yield* moveIfStill(tenant, payment.id, "requires_capture", "canceled", (current) => ({
          failure: new Failure({ code: outcome.code, message: outcome.message }),
          attempts: replaceAttempt(current, attempt.id, { status: "canceled" })
        }))
      }
      return payment
    })

  const returnFromAction = Effect.fn("Payments.returnFromAction")(function*(id: string) {
    const tenant = yield* repository.tenantOf(id).pipe(
      Effect.flatMap(Option.match({ onNone: () => new PaymentNotFound({ id }), onSome: Effect.succeed }))
    )
    return yield* refresh(tenant, yield* load(tenant, id))
  })

  /**
   * Sends the unanswered attempt again under its own reference, as a client retry would: the PSP
   * answers what it did with it, or does it now, once. Concluding "it never arrived" instead would race
   * with a client's retry that is sending it at this very moment.
   */
  const reconcile = Effect.fn("Payments.reconcile")(function*(ref: PaymentRef) {
    const payment = yield* load(ref.tenant, ref.paymentId).pipe(Effect.orDie)
    if (payment.status !== "processing" || payment.attempts.at(-1)?.status !== "pending") return
    const driven = yield* drive(ref.tenant, payment, { resend: true })
    yield* Effect.ignore(finish(ref.tenant, driven))
  })

  const followUp = Effect.fn("Payments.followUp")(function*(ref: PaymentRef) {
    const policy = yield* AttemptPolicy
    const payment = yield* refresh(ref.tenant, yield* load(ref.tenant, ref.paymentId).pipe(Effect.orDie))
    const lifetime = payment.status === "requires_capture"
      ? policy.authorizationLifetime
      : payment.status === "requires_action"
      ? policy.actionLifetime
      : undefined
    if (lifetime === undefined) return
    const expiresAt = DateTime.add(payment.updated_at, { millis: Duration.toMillis(lifetime) })
    if (DateTime.lessThan(yield* now, expiresAt)) return
    yield* cancelNow(
      ref.tenant,
      payment,
      new Failure({
        code: payment.status === "requires_capture" ? "authorization_expired" : "action_expired",
        message: payment.status === "requires_capture"
          ? "The authorization was not captured in time and was released."
          : "The customer did not complete the required action in time."
      })
    ).pipe(Effect.catchAll(() => Effect.void))
  })

  return Payments.of({
    create,
    resume,
    retrieve: (tenant, id) => load(tenant, id),
    list: (tenant, filter, page) => repository.list(tenant, filter, page),
    capture,
    cancel,
    returnFromAction,
    reconcile,
    followUp
  })
})

