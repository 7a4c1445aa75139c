import { IdempotencyScope } from "../idempotency/IdempotencyScope.js"
import { Context, Duration, Effect, Layer, Option } from "effect"
import { now } from "../domain/Timestamp.js"
import type { Tenant } from "../domain/Tenant.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import { PublicUrls } from "../ports/PublicUrls.js"
import { Transactions } from "../ports/Transactions.js"
import { Connectors } from "../providers/Connectors.js"
import type {
  AuthorizationOutcome,
  AuthorizeRequest,
  BrowserDetails,
  ConnectorError,
  PaymentConnector,
  StoredCredential
} from "../providers/PaymentConnector.js"
import { ConnectionHealth } from "../providers/ConnectionHealth.js"
import { providerText } from "../providers/FailureMessages.js"
import { type CallResult, callProvider } from "../providers/ProviderCall.js"
import type { ProviderConnection } from "../providers/ProviderConnection.js"
import { ProviderResolution } from "../providers/ProviderResolution.js"
import { KeyMaterial } from "../tenancy/KeyMaterial.js"
import { awaitsOutcome, Failure, type Payment, PaymentAttempt } from "./Payment.js"
import { PaymentRefused, ProviderUnreachable, ReturnUrlRequired } from "./PaymentErrors.js"
import {
  canceledStep,
  captureReportOf,
  nextProvider,
  replaceAttempt,
  type Settlement,
  settlementOf,
  unansweredOf,
  unavailable
} from "./PaymentOutcomes.js"
import { PaymentPolicy } from "./PaymentPolicy.js"
import { PaymentRecords } from "./PaymentRecords.js"
import { PaymentsRepository } from "./PaymentsRepository.js"
import { returnTokenFor } from "./ReturnToken.js"

/** What only the request that creates a payment knows, for the first send. */
export interface SendContext {
  readonly browser: BrowserDetails | null
  readonly storedCredential: StoredCredential
}

export interface ConcludeOptions {
  /** A challenge without a return_url waits for the customer, who ends on the page saying they may close the window. */
  readonly closingPage?: boolean
}

/**
 * Every conversation with the PSP about a payment: sending its attempts (with the retries the policy
 * allows, on the same connection or the next fallback), asking how they ended, and canceling.
 * Whatever the PSP answers is applied through the payment's lifecycle, once.
 */
export class PaymentAttempts extends Context.Tag("core/PaymentAttempts")<PaymentAttempts, {
  /**
   * One call to the PSP of a connection (by name, or the connection itself) under the policy's
   * timeout; how it ended counts towards the connection's health.
   */
  readonly call: <A>(
    tenant: Tenant,
    provider: string | ProviderConnection,
    use: (connector: PaymentConnector) => Effect.Effect<A, ConnectorError>
  ) => Effect.Effect<{ readonly result: CallResult<A>; readonly latencyMs: number }>
  /** A fresh attempt on `provider`; its id is the PSP idempotency reference of that attempt. */
  readonly newAttempt: (provider: string) => Effect.Effect<PaymentAttempt>
  /**
   * Sends the payment's open attempt and records the end. `resend` marks an attempt that may already
   * have reached the PSP (resume, reconciliation): then "unreachable" proves nothing about the first
   * send, so the payment stays `processing`, and an attempt the PSP acknowledged is asked about
   * instead of sent again.
   */
  readonly send: (tenant: Tenant, payment: Payment, options: {
    readonly resend: boolean
    /** The connection of the open attempt, when the caller just resolved it. */
    readonly connection?: ProviderConnection
    readonly context?: SendContext
    /** Connections to fail over to, in order, once the current one has had its tries. */
    readonly fallbacks?: ReadonlyArray<string>
  }) => Effect.Effect<Payment>
  /** Applies the PSP's answer to an attempt, if the payment still waits for it. */
  readonly settle: (
    tenant: Tenant,
    paymentId: string,
    attemptId: string,
    outcome: AuthorizationOutcome,
    latencyMs: number | null
  ) => Effect.Effect<Payment>
  /** What the PSP says now about a payment waiting on the customer or a capture, recorded if it moved on. */
  readonly refresh: (tenant: Tenant, payment: Payment) => Effect.Effect<Payment>
  /**
   * Applies what the PSP reported about attempt `attemptId` (by webhook or sync), where it is news:
   * an outcome for an attempt still waiting, or a capture or release of an authorization. Anything
   * else, a late or repeated report included, changes nothing: no state ever moves backwards.
   */
  readonly applyReport: (
    tenant: Tenant,
    payment: Payment,
    attemptId: string,
    outcome: AuthorizationOutcome
  ) => Effect.Effect<Payment>
  /**
   * Keeps what the PSP said about attempt `attemptId` (a refusal's own words, first KiB) on the
   * attempt record, for operators: never shown by the API.
   */
  readonly keepProviderMessage: (tenant: Tenant, attemptId: string, message: string | undefined) => Effect.Effect<void>
  /** Cancels (the PSP first, when it holds money); the caller checked the status allows it. */
  readonly cancelNow: (
    tenant: Tenant,
    payment: Payment,
    failure: Failure | null
  ) => Effect.Effect<Payment, PaymentRefused | ProviderUnreachable>
  /**
   * The rules for a payment that reached the end of a send: a challenge with no way back for the
   * customer (no return_url, customer present) is canceled, unless the caller lets it end on our own
   * page (`closingPage`, see `PaymentContext`), and a failure is reported as such.
   */
  readonly conclude: (
    tenant: Tenant,
    payment: Payment,
    options?: ConcludeOptions
  ) => Effect.Effect<Payment, PaymentRefused | ReturnUrlRequired>
}>() {
  static readonly layer = Layer.effect(PaymentAttempts, Effect.suspend(() => make))
}

/** What the PSP (or the transport, in our words) said about a send, for the attempt record only. */
const providerTextOf = (result: CallResult<AuthorizationOutcome>): string | undefined => {
  switch (result._tag) {
    case "Unavailable":
      return result.providerMessage === undefined ? result.reason : `${result.reason}\n${result.providerMessage}`
    case "NoAnswer":
      return result.reason
    case "Answered":
      return result.value._tag === "Refused" ? result.value.providerMessage : undefined
  }
}

const make = Effect.gen(function*() {
  const records = yield* PaymentRecords
  const transactions = yield* Transactions
  const ids = yield* IdGenerator
  const connectors = yield* Connectors
  const resolution = yield* ProviderResolution
  const health = yield* ConnectionHealth
  const urls = yield* PublicUrls
  const { returnSigning } = yield* KeyMaterial
  const repository = yield* PaymentsRepository

  const keepProviderMessage = (tenant: Tenant, attemptId: string, message: string | undefined) =>
    message === undefined || message === ""
      ? Effect.void
      : repository.recordProviderMessage(tenant, attemptId, providerText(message))

  const call = <A>(
    tenant: Tenant,
    provider: string | ProviderConnection,
    use: (connector: PaymentConnector) => Effect.Effect<A, ConnectorError>
  ) =>
    Effect.gen(function*() {
      const policy = yield* PaymentPolicy
      const connection = typeof provider === "string" ? yield* resolution.byName(tenant, provider) : provider
      const connector = yield* Effect.orDie(connectors.forConnection(connection))
      const deadline = connector.deadlineMs === undefined
        ? policy.callTimeout
        : Duration.min(policy.callTimeout, Duration.millis(connector.deadlineMs))
      const outcome = yield* callProvider(use(connector), deadline)
      yield* health.observe(tenant, connection, outcome.result)
      return outcome
    })

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

  /** Our return URL for the payment, with the token that lets its customer (and only them) use it. */
  const returnUrlOf = (tenant: Tenant, payment: Payment) =>
    Effect.map(
      returnTokenFor(returnSigning, payment.id, tenant, payment.created_at.epochMillis),
      (token) => urls.paymentReturn(payment.id, token)
    )

  const authorizeRequest = (
    payment: Payment,
    attempt: PaymentAttempt,
    context: SendContext | undefined,
    returnUrl: string
  ): AuthorizeRequest => ({
    reference: attempt.id,
    paymentId: payment.id,
    amount: payment.amount,
    currency: payment.currency,
    paymentMethod: { type: payment.payment_method.type, token: payment.payment_method.token },
    capture: payment.capture,
    returnUrl,
    description: payment.description,
    customer: payment.customer_id === null ? null : { id: payment.customer_id, email: null, name: null },
    browser: context?.browser ?? null,
    offSession: payment.off_session,
    storedCredential: context?.storedCredential ?? (payment.off_session ? "subsequent" : "none")
  })

  /** Applies what `decide` makes of the payment, judged on the locked row. */
  const applyLocked = (tenant: Tenant, paymentId: string, decide: (payment: Payment) => Settlement) =>
    transactions.run(Effect.gen(function*() {
      let payment = yield* records.lock(tenant, paymentId)
      const settlement = decide(payment)
      switch (settlement._tag) {
        case "Move":
          for (const step of settlement.steps) payment = yield* records.move(tenant, payment, step.to, step.changes)
          return payment
        case "Record":
          return yield* records.save(tenant, payment, settlement.changes)
        case "Nothing":
          return payment
      }
    }))

  const settle = (tenant: Tenant, paymentId: string, attemptId: string, outcome: AuthorizationOutcome, latencyMs: number | null) =>
    applyLocked(tenant, paymentId, (payment) => settlementOf(payment, attemptId, outcome, latencyMs))

  /**
   * `applyLocked` for the payment as this process last wrote it: in one write when nobody has touched
   * it since (the request that sent it is almost always first to learn the answer), else under the lock.
   */
  const applySeen = (tenant: Tenant, seen: Payment, decide: (payment: Payment) => Settlement) =>
    Effect.gen(function*() {
      const settlement = decide(seen)
      if (settlement._tag !== "Nothing") {
        const written = yield* records.advanceIfUnchanged(
          tenant,
          seen,
          settlement._tag === "Move" ? settlement.steps : [],
          settlement._tag === "Record" ? settlement.changes : {}
        )
        if (Option.isSome(written)) return written.value
      }
      return yield* applyLocked(tenant, seen.id, decide)
    })

  const settleSeen = (tenant: Tenant, seen: Payment, attemptId: string, outcome: AuthorizationOutcome, latencyMs: number) =>
    applySeen(tenant, seen, (payment) => settlementOf(payment, attemptId, outcome, latencyMs))

  /** Closes a failed attempt and opens the next, on `provider`, in one transaction. */
  const retryWith = (tenant: Tenant, paymentId: string, attemptId: string, code: string, latencyMs: number, provider: string) =>
    transactions.run(Effect.gen(function*() {
      const payment = yield* records.lock(tenant, paymentId)
      const current = payment.attempts.at(-1)
      if (payment.status !== "processing" || current?.id !== attemptId || !awaitsOutcome(current)) {
        return Option.none<Payment>()
      }
      const next = yield* newAttempt(provider)
      return Option.some(
        yield* records.save(tenant, payment, {
          provider,
          attempts: [...replaceAttempt(payment, attemptId, { status: "failed", error_code: code, latency_ms: latencyMs }), next]
        })
      )
    }))

  const send: PaymentAttempts["Type"]["send"] = (tenant, start, options) =>
    Effect.gen(function*() {
      const policy = yield* PaymentPolicy
      let payment = start
      let resend = options.resend
      let connection = options.connection
      // The same for every send of the payment (a function of the payment alone), and signed before
      // the call's deadline starts, so the deadline measures the PSP and nothing else.
      let returnUrl: string | undefined
      while (true) {
        const attempt = payment.attempts.at(-1)!
        const acknowledged = resend && attempt.provider_payment_id !== null
        if (!acknowledged && returnUrl === undefined) returnUrl = yield* returnUrlOf(tenant, payment)
        const signedUrl = returnUrl
        const { latencyMs, result } = yield* call(
          tenant,
          connection?.name === attempt.provider ? connection : attempt.provider,
          (connector) =>
            acknowledged || signedUrl === undefined
              ? connector.syncPayment({ reference: attempt.id, pspPaymentId: attempt.provider_payment_id })
              : connector.authorize({ ...authorizeRequest(payment, attempt, options.context, signedUrl), resend })
        )
        connection = undefined
        yield* keepProviderMessage(tenant, attempt.id, providerTextOf(result))
        // No answer: the PSP may have charged. The attempt ends `unknown`, the payment stays
        // `processing`, and reconciliation asks the PSP under the same reference. Whatever the PSP
        // answers to this call later is never applied: the call was abandoned at the deadline.
        if (result._tag === "NoAnswer") {
          if (acknowledged) return payment
          const code = result.timedOut ? "timeout" : "outcome_unknown"
          return yield* applySeen(tenant, payment, (current) => unansweredOf(current, attempt.id, code, latencyMs))
        }
        if (resend && result._tag === "Unavailable") return payment
        resend = false
        const outcome = result._tag === "Unavailable" ? unavailable(result.reason) : result.value
        const next = nextProvider(payment, outcome, policy.retryDecisions, options.fallbacks ?? [])
        if (Option.isSome(next) && outcome._tag === "Refused") {
          const retried = yield* retryWith(tenant, payment.id, attempt.id, outcome.code, latencyMs, next.value)
          if (Option.isNone(retried)) return yield* Effect.orDie(records.load(tenant, payment.id))
          payment = retried.value
          continue
        }
        return yield* settleSeen(tenant, payment, attempt.id, outcome, latencyMs)
      }
    })

  const applyReport = (tenant: Tenant, payment: Payment, attemptId: string, outcome: AuthorizationOutcome) =>
    Effect.gen(function*() {
      if (outcome._tag === "Refused") yield* keepProviderMessage(tenant, attemptId, outcome.providerMessage)
      if (payment.status !== "requires_capture") return yield* settle(tenant, payment.id, attemptId, outcome, null)
      if (Option.isNone(captureReportOf(payment, attemptId, outcome))) return payment
      // Judged again on the locked row: another process may have moved it since it was read.
      return yield* transactions.run(Effect.gen(function*() {
        const current = yield* records.lock(tenant, payment.id)
        const reported = captureReportOf(current, attemptId, outcome)
        return Option.isNone(reported)
          ? current
          : yield* records.move(tenant, current, reported.value.to, reported.value.changes)
      }))
    })

  const refresh = (tenant: Tenant, payment: Payment) =>
    Effect.gen(function*() {
      if (payment.status !== "requires_action" && payment.status !== "requires_capture") return payment
      const attempt = payment.attempts.at(-1)!
      const { result } = yield* call(tenant, attempt.provider, (connector) =>
        connector.syncPayment({ reference: attempt.id, pspPaymentId: payment.provider_payment_id }))
      // Unreachable or unknown: nothing to record yet.
      if (result._tag !== "Answered") return payment
      return yield* applyReport(tenant, payment, attempt.id, result.value)
    })

  const cancelNow = (tenant: Tenant, payment: Payment, failure: Failure | null) =>
    Effect.gen(function*() {
      if (payment.status !== "created") {
        const attempt = payment.attempts.at(-1)!
        const { result } = yield* call(tenant, attempt.provider, (connector) =>
          connector.cancel({ reference: `${attempt.id}_cancel`, pspPaymentId: payment.provider_payment_id ?? attempt.id }))
        if (result._tag !== "Answered") {
          return yield* new ProviderUnreachable({ payment, timedOut: result._tag === "NoAnswer" })
        }
        if (result.value._tag === "Refused") {
          yield* keepProviderMessage(tenant, attempt.id, result.value.providerMessage)
          return yield* new PaymentRefused({ payment, code: result.value.code, message: result.value.message })
        }
        // Accepted, settled later: the payment says so when the PSP does.
        if (result.value._tag === "Pending") return payment
      }
      // Under an Idempotency-Key, the key learns of the move in its transaction (see Payments.cancel).
      const scope = yield* IdempotencyScope
      return yield* transactions.run(
        Effect.tap(
          records.moveIfStill(tenant, payment.id, payment.status, "canceled", (current) =>
            canceledStep(current, failure).changes),
          () => scope.attach(payment.id)
        )
      )
    })

  const conclude = (tenant: Tenant, payment: Payment, options?: ConcludeOptions) =>
    Effect.gen(function*() {
      const nowhereToReturn = payment.return_url === null && !payment.off_session && options?.closingPage !== true
      if (payment.status === "requires_action" && nowhereToReturn) {
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

  return PaymentAttempts.of({ call, newAttempt, send, settle, refresh, applyReport, keepProviderMessage, cancelNow, conclude })
})
