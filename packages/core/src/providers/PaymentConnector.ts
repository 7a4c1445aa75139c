import { Context, Data, type Effect } from "effect"
import type { Currency } from "../domain/Currency.js"
import type { ProviderConnection } from "./ProviderConnection.js"

/** What the PSP tells us about the card behind a token. */
export interface CardDetails {
  readonly brand: string | null
  readonly last4: string | null
  readonly country: string | null
}

export interface AuthorizeRequest {
  /** Our attempt id, sent as the PSP's idempotency key: the same reference never charges twice. */
  readonly reference: string
  readonly paymentId: string
  readonly amount: number
  readonly currency: Currency
  readonly paymentMethod: { readonly type: string; readonly token: string }
  /** `false` authorizes only; the money moves on capture. */
  readonly capture: boolean
  /** Where the PSP sends the customer after a redirect: our `/v1/payments/{id}/return`. */
  readonly returnUrl: string
  readonly description: string | null
  readonly customerId: string | null
}

export type AuthorizationOutcome = Data.TaggedEnum<{
  /** `captured: false` is an authorization waiting for capture; `amountCaptured` is what the PSP took. */
  Authorized: {
    readonly pspPaymentId: string
    readonly captured: boolean
    readonly amountCaptured: number
    readonly card: CardDetails
  }
  ActionRequired: { readonly pspPaymentId: string; readonly redirectUrl: string; readonly card: CardDetails }
  /** The PSP refused or failed the money movement. `retryable` marks failures worth one more try. */
  Refused: {
    readonly pspPaymentId: string | null
    readonly code: string
    readonly message: string
    readonly retryable: boolean
    readonly card: CardDetails
  }
  /** Only from `syncPayment`: the PSP has no payment under this reference. */
  Unknown: {}
}>
export const AuthorizationOutcome = Data.taggedEnum<AuthorizationOutcome>()

/** The PSP's answer to a capture, with the amount it really captured: that is what gets recorded. */
export type CaptureOutcome = Data.TaggedEnum<{
  Captured: { readonly amount: number }
  Refused: { readonly code: string; readonly message: string }
}>
export const CaptureOutcome = Data.taggedEnum<CaptureOutcome>()

export type ModificationOutcome = Data.TaggedEnum<{
  Done: {}
  Refused: { readonly code: string; readonly message: string }
}>
export const ModificationOutcome = Data.taggedEnum<ModificationOutcome>()

export type RefundOutcome = Data.TaggedEnum<{
  Succeeded: { readonly pspRefundId: string }
  Pending: { readonly pspRefundId: string }
  Failed: { readonly pspRefundId: string | null; readonly code: string; readonly message: string }
  /** Only from `syncRefund`. */
  Unknown: {}
}>
export const RefundOutcome = Data.taggedEnum<RefundOutcome>()

/** The PSP could not be reached and processed nothing (connect error, 5xx before processing). */
export class ConnectorUnavailable extends Data.TaggedError("ConnectorUnavailable")<{ readonly reason: string }> {}

/** The request may or may not have been processed (timeout, reset after send): reconcile, never redo blindly. */
export class ConnectorOutcomeUnknown extends Data.TaggedError("ConnectorOutcomeUnknown")<{ readonly reason: string }> {}

export type ConnectorError = ConnectorUnavailable | ConnectorOutcomeUnknown

/** The port every PSP implementation fills. Connectors own their wire protocol and its quirks. */
export interface PaymentConnector {
  readonly authorize: (request: AuthorizeRequest) => Effect.Effect<AuthorizationOutcome, ConnectorError>
  readonly syncPayment: (request: {
    readonly reference: string
    readonly pspPaymentId: string | null
  }) => Effect.Effect<AuthorizationOutcome, ConnectorError>
  /** Capturing again under the same reference answers the first capture, whatever `amount` says. */
  readonly capture: (request: {
    readonly reference: string
    readonly pspPaymentId: string
    readonly amount: number
    readonly currency: Currency
  }) => Effect.Effect<CaptureOutcome, ConnectorError>
  readonly cancel: (request: {
    readonly reference: string
    readonly pspPaymentId: string
  }) => Effect.Effect<ModificationOutcome, ConnectorError>
  readonly refund: (request: {
    readonly reference: string
    readonly pspPaymentId: string
    readonly amount: number
    readonly currency: Currency
    readonly reason: string | null
  }) => Effect.Effect<RefundOutcome, ConnectorError>
  readonly syncRefund: (request: { readonly reference: string }) => Effect.Effect<RefundOutcome, ConnectorError>
}

/** Hands out the connector for a connection, by its `type`. */
export class Connectors extends Context.Tag("core/Connectors")<Connectors, {
  readonly forConnection: (connection: ProviderConnection) => PaymentConnector
}>() {}
