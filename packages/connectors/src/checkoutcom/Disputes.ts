import { type Currency, type DisputeFact, type DisputeReason, type DisputeStage, type DisputeStatus, ProviderEvent } from "@orchestrator/core"
import { Either, Schema } from "effect"
import { fromCheckoutComAmount } from "./Amounts.js"

/** A dispute webhook: the fields of Checkout.com's `Dispute`, with its payment's id and reference. */
const DisputeWebhook = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  created_on: Schema.optional(Schema.String),
  data: Schema.Struct({
    id: Schema.String,
    category: Schema.optional(Schema.String),
    amount: Schema.Number,
    currency: Schema.String,
    reason_code: Schema.optional(Schema.String),
    payment_id: Schema.String,
    payment_reference: Schema.optional(Schema.String),
    evidence_required_by: Schema.optional(Schema.String)
  })
})

const decode = Schema.decodeUnknownEither(Schema.parseJson(DisputeWebhook))

/** Each dispute webhook type's news: the status it says, and the stage. */
const TYPES: Readonly<Record<string, { readonly status: DisputeStatus; readonly stage: DisputeStage }>> = {
  dispute_received: { status: "needs_response", stage: "chargeback" },
  dispute_evidence_required: { status: "needs_response", stage: "chargeback" },
  dispute_evidence_submitted: { status: "under_review", stage: "chargeback" },
  dispute_evidence_acknowledged_by_scheme: { status: "under_review", stage: "chargeback" },
  dispute_won: { status: "won", stage: "chargeback" },
  dispute_lost: { status: "lost", stage: "chargeback" },
  dispute_expired: { status: "expired", stage: "chargeback" },
  dispute_accepted: { status: "accepted", stage: "chargeback" },
  // Withdrawn by the issuer: the money stays with the merchant.
  dispute_canceled: { status: "won", stage: "chargeback" },
  // Settled by a refund (rapid dispute resolution, already refunded): the customer has the money.
  dispute_resolved: { status: "accepted", stage: "chargeback" },
  dispute_arbitration_sent_to_scheme: { status: "under_review", stage: "arbitration" },
  dispute_arbitration_won: { status: "won", stage: "arbitration" },
  dispute_arbitration_lost: { status: "lost", stage: "arbitration" }
}

/** Checkout.com's categories, in ours (its own reason code is kept). */
const CATEGORIES: Readonly<Record<string, DisputeReason>> = {
  fraudulent: "fraudulent",
  unrecognized: "unrecognized",
  canceled_recurring: "subscription_canceled",
  product_service_not_received: "product_not_received",
  not_as_described: "product_unacceptable",
  credit_not_issued: "credit_not_processed",
  duplicate: "duplicate",
  incorrect_amount: "incorrect_amount"
}

const millisOf = (iso: string | undefined) => {
  const millis = iso === undefined ? Number.NaN : Date.parse(iso)
  return Number.isFinite(millis) ? millis : undefined
}

/** A dispute as `GET /disputes/{id}` shows it (Checkout.com's `Dispute`). */
export const CheckoutComDispute = Schema.Struct({
  id: Schema.String,
  category: Schema.optional(Schema.String),
  amount: Schema.Number,
  currency: Schema.String,
  reason_code: Schema.optional(Schema.String),
  status: Schema.String,
  evidence_required_by: Schema.optional(Schema.String),
  last_update: Schema.optional(Schema.String),
  payment: Schema.optional(Schema.Struct({ id: Schema.optional(Schema.String) }))
})

/** The `status` of Checkout.com's `Dispute`, as the webhook type that comes with it says it. */
const STATUSES: Readonly<Record<string, string>> = {
  evidence_required: "dispute_evidence_required",
  evidence_under_review: "dispute_evidence_submitted",
  won: "dispute_won",
  lost: "dispute_lost",
  expired: "dispute_expired",
  accepted: "dispute_accepted",
  canceled: "dispute_canceled",
  resolved: "dispute_resolved",
  arbitration_under_review: "dispute_arbitration_sent_to_scheme",
  arbitration_won: "dispute_arbitration_won",
  arbitration_lost: "dispute_arbitration_lost"
}

/**
 * A dispute read by `GET /disputes/{id}` as a fact, dated by its `last_update` (else the read), its
 * payment the one the read was for when the answer does not name it; `undefined` for a status we do not read.
 */
export const factOfCheckoutComDispute = (dispute: typeof CheckoutComDispute.Type, pspPaymentId: string | null, atMillis: number) => {
  const news = TYPES[STATUSES[dispute.status] ?? ""]
  if (news === undefined) return undefined
  const currency = dispute.currency.toUpperCase() as Currency
  return {
    pspDisputeId: dispute.id,
    reference: null,
    pspPaymentId: dispute.payment?.id ?? pspPaymentId,
    status: news.status,
    stage: news.stage,
    amount: fromCheckoutComAmount(dispute.amount, currency),
    currency,
    reason: CATEGORIES[dispute.category ?? ""] ?? "general",
    reasonCode: dispute.reason_code ?? dispute.category ?? null,
    evidenceDueByMillis: millisOf(dispute.evidence_required_by) ?? null,
    fee: null,
    occurredAtMillis: millisOf(dispute.last_update) ?? atMillis
  } satisfies DisputeFact
}

/** Whether a webhook type is one of Checkout.com's dispute notifications. */
export const isDisputeWebhook = (type: string) => type.startsWith("dispute_")

/**
 * A dispute webhook in the port's terms, dated by its `created_on` (else when it arrived); `[]` for
 * one we do not read, or whose body is not a dispute's.
 */
export const disputeEventsOf = (body: string, receivedAtMillis: number) => {
  const decoded = decode(body)
  if (Either.isLeft(decoded)) return []
  const { data, id, type } = decoded.right
  const news = TYPES[type]
  if (news === undefined) return []
  const currency = data.currency.toUpperCase() as Currency
  return [ProviderEvent.DisputeUpdated({
    eventId: id,
    fact: {
      pspDisputeId: data.id,
      reference: data.payment_reference ?? null,
      pspPaymentId: data.payment_id,
      status: news.status,
      stage: news.stage,
      amount: fromCheckoutComAmount(data.amount, currency),
      currency,
      reason: CATEGORIES[data.category ?? ""] ?? "general",
      reasonCode: data.reason_code ?? data.category ?? null,
      evidenceDueByMillis: millisOf(data.evidence_required_by) ?? null,
      fee: null,
      occurredAtMillis: millisOf(decoded.right.created_on) ?? receivedAtMillis
    }
  })]
}
