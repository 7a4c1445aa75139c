import { Data } from "effect"
import type { DisputeFact } from "../disputes/DisputeFact.js"

// What a PSP answers, in the core's terms: every connector translates its wire protocol into these,
// and the payment, refund and subscription decisions read them (the port itself is ports/PaymentConnector).

/** What the PSP tells us about the card behind a token. */
export interface CardDetails {
  readonly brand: string | null
  readonly last4: string | null
  readonly country: string | null
}

export type AuthorizationOutcome = Data.TaggedEnum<{
  /** `captured: false` is an authorization waiting for capture; `amountCaptured` is what the PSP took. */
  Authorized: {
    readonly pspPaymentId: string
    readonly captured: boolean
    readonly amountCaptured: number
    readonly card: CardDetails
    /** The card scheme's id of this transaction, when the PSP gave it: a vaulted card keeps it for later charges. */
    readonly networkTransactionId?: string | undefined
  }
  ActionRequired: { readonly pspPaymentId: string; readonly redirectUrl: string; readonly card: CardDetails }
  /**
   * The PSP refused or failed the money movement. `retryable` marks failures worth one more try.
   * `message` is ours for `code` (see FailureMessages); `providerMessage` is the PSP's own text,
   * kept on the attempt record only, never shown to a merchant.
   */
  Refused: {
    readonly pspPaymentId: string | null
    readonly code: string
    readonly message: string
    readonly retryable: boolean
    readonly card: CardDetails
    readonly providerMessage?: string | undefined
  }
  /** The PSP took the request and will tell its outcome later (webhook or status sync). */
  Pending: { readonly pspPaymentId: string; readonly card: CardDetails }
  /** Only from `syncPayment`: the PSP has no payment under this reference. */
  Unknown: {}
}>
export const AuthorizationOutcome = Data.taggedEnum<AuthorizationOutcome>()

/** The PSP's answer to a capture, with the amount it really captured: that is what gets recorded. */
export type CaptureOutcome = Data.TaggedEnum<{
  Captured: { readonly amount: number }
  /** Accepted, settled later (Adyen answers captures `received`): the payment waits for the news. */
  Pending: {}
  Refused: { readonly code: string; readonly message: string; readonly providerMessage?: string | undefined }
}>
export const CaptureOutcome = Data.taggedEnum<CaptureOutcome>()

/** The PSP's answer to a cancel. */
export type ModificationOutcome = Data.TaggedEnum<{
  Done: {}
  /** Accepted, settled later: the payment waits for the news. */
  Pending: {}
  Refused: { readonly code: string; readonly message: string; readonly providerMessage?: string | undefined }
}>
export const ModificationOutcome = Data.taggedEnum<ModificationOutcome>()

export type RefundOutcome = Data.TaggedEnum<{
  Succeeded: { readonly pspRefundId: string }
  Pending: { readonly pspRefundId: string }
  Failed: {
    readonly pspRefundId: string | null
    readonly code: string
    readonly message: string
    readonly providerMessage?: string | undefined
  }
  /** Only from `syncRefund`. */
  Unknown: {}
}>
export const RefundOutcome = Data.taggedEnum<RefundOutcome>()

/**
 * What a PSP's webhook tells us, in the port's terms. `eventId` is the PSP's own id of the
 * notification, for deduplication; objects are found by our reference or the PSP's id.
 */
export type ProviderEvent = Data.TaggedEnum<{
  PaymentUpdated: {
    readonly eventId: string
    readonly reference: string | null
    readonly pspPaymentId: string | null
    readonly outcome: AuthorizationOutcome
  }
  RefundUpdated: {
    readonly eventId: string
    readonly reference: string | null
    readonly pspRefundId: string | null
    readonly outcome: RefundOutcome
  }
  /**
   * A subscription the PSP runs (`engine: native`) moved: one of its period invoices was charged
   * (`invoice` says how), or the PSP ended it. `reference` is our subscription id.
   */
  SubscriptionUpdated: {
    readonly eventId: string
    readonly reference: string
    readonly pspSubscriptionId: string
    readonly status: NativeSubscriptionStatus
    readonly invoice: NativeInvoice | null
  }
  /** A dispute (inquiry, chargeback, …) opened or moved, as the PSP dated it. */
  DisputeUpdated: {
    readonly eventId: string
    readonly fact: DisputeFact
  }
}>
export const ProviderEvent = Data.taggedEnum<ProviderEvent>()

/** The PSP's answer to evidence sent, or to a dispute accepted: `Refused` says why, in our words. */
export type DisputeActionOutcome = Data.TaggedEnum<{
  Done: {}
  Refused: { readonly code: string; readonly message: string; readonly providerMessage?: string | undefined }
}>
export const DisputeActionOutcome = Data.taggedEnum<DisputeActionOutcome>()

/** A subscription's status as the PSP running it reports it. */
export type NativeSubscriptionStatus = "trialing" | "active" | "past_due" | "unpaid" | "canceled" | "incomplete_expired"

/**
 * One period's invoice as the PSP reports it after a charge attempt. `periodStartMillis` and
 * `attempt` order the PSP's news: a report of an older period, or of an earlier attempt, is stale.
 */
export interface NativeInvoice {
  readonly pspInvoiceId: string
  readonly periodStartMillis: number
  readonly periodEndMillis: number
  readonly amount: number
  readonly currency: string
  readonly attempt: number
  readonly outcome: "paid" | "failed"
  readonly failureCode: string | null
  /** When the PSP tries again; null after a failure: it will not (retries exhausted). */
  readonly nextAttemptMillis: number | null
  /**
   * The PSP says whether this is the subscription's first charge (Stripe's `billing_reason`). Without
   * it, the first charge is the one whose period starts where ours does: true of a PSP that takes our
   * start time, not of one that starts the subscription on its own clock when asked.
   */
  readonly firstCharge?: boolean
}

/** What a PSP reports about a native subscription: the payload of its webhook. */
export type NativeSubscriptionReport = Extract<ProviderEvent, { readonly _tag: "SubscriptionUpdated" }>

/** The PSP could not be reached and processed nothing (connect error, 5xx before processing). */
export class ConnectorUnavailable extends Data.TaggedError("ConnectorUnavailable")<{
  /** Ours: what failed, in our words (shown to operators, e.g. as the connection's last error). */
  readonly reason: string
  /** The PSP's own answer, when it gave one: kept on the attempt record only. */
  readonly providerMessage?: string | undefined
  /**
   * The vaulted card did not open (deleted, a key version missing, its row altered): nothing was
   * sent, the PSP is not at fault, and no other PSP would fare better.
   */
  readonly cardUnusable?: true | undefined
}> {}

/** The request may or may not have been processed (timeout, reset after send): reconcile, never redo blindly. */
export class ConnectorOutcomeUnknown extends Data.TaggedError("ConnectorOutcomeUnknown")<{
  readonly reason: string
  /** No answer within the connection's timeout (rather than a connection lost after sending). */
  readonly timedOut?: boolean
}> {}

export type ConnectorError = ConnectorUnavailable | ConnectorOutcomeUnknown

/**
 * An incoming webhook that is not provably from the PSP (signature, timestamp) or that we cannot read.
 * `settled`: the PSP itself said what it names is not this connection's: refused again unasked;
 * `signed`: signed, but what it holds was refused.
 */
export class WebhookRejected extends Data.TaggedError("WebhookRejected")<{ readonly reason: string; readonly settled?: boolean; readonly signed?: boolean }> {}
