import { Context, Effect, Layer } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import { ConnectionHealth } from "../providers/ConnectionHealth.js"
import { Connectors } from "../providers/Connectors.js"
import type { AuthorizationOutcome, ConnectorError, PaymentConnector } from "../providers/PaymentConnector.js"
import type { CallResult } from "../providers/ProviderCall.js"
import type { ProviderConnection } from "../providers/ProviderConnection.js"
import { ProviderResolution } from "../providers/ProviderResolution.js"
import { makeAttemptSending, type SendOptions } from "./AttemptSending.js"
import { makeAttemptSettlement } from "./AttemptSettlement.js"
import type { Failure, Payment, PaymentAttempt } from "./Payment.js"
import { makePaymentCalls } from "./PaymentCalls.js"
import { type ConcludeOptions, makePaymentCancellation } from "./PaymentCancellation.js"
import type { PaymentRefused, ProviderTimeout, ProviderUnavailable, ReturnUrlRequired } from "./PaymentErrors.js"
import { PaymentRecords } from "./PaymentRecords.js"

export type { SendContext, SendOptions } from "./AttemptSending.js"
export type { ConcludeOptions } from "./PaymentCancellation.js"

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
  readonly send: (tenant: Tenant, payment: Payment, options: SendOptions) => Effect.Effect<Payment>
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
  ) => Effect.Effect<Payment, PaymentRefused | ProviderUnavailable | ProviderTimeout>
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
  static readonly layer = Layer.effect(PaymentAttempts, Effect.suspend(() => make)).pipe(
    Layer.provide(Layer.mergeAll(IdGenerator.layer, Connectors.layer, ConnectionHealth.layer, ProviderResolution.layer, PaymentRecords.layer))
  )
}

/**
 * The attempts service, put together from its use cases: the PSP call itself (`PaymentCalls`),
 * applying its answers (`AttemptSettlement`), sending with failover (`AttemptSending`), and canceling
 * (`PaymentCancellation`).
 */
const make = Effect.gen(function*() {
  const calls = yield* makePaymentCalls
  const settlement = yield* makeAttemptSettlement(calls)
  const { newAttempt, send } = yield* makeAttemptSending(calls, settlement)
  const { cancelNow, conclude } = yield* makePaymentCancellation(calls)
  return PaymentAttempts.of({
    call: calls.call,
    newAttempt,
    send,
    settle: settlement.settle,
    refresh: settlement.refresh,
    applyReport: settlement.applyReport,
    keepProviderMessage: calls.keepProviderMessage,
    cancelNow,
    conclude
  })
})
