import { type Currency, type DisputeFact, type DisputeReason, type DisputeStage, type DisputeStatus, ProviderEvent } from "@orchestrator/core"
import { Schema } from "effect"
import { fromPayPalMoney } from "./Amounts.js"
import { Money } from "./Wire.js"

/** A PayPal dispute as far as we read it (Disputes v1 `dispute`: the CUSTOMER.DISPUTE.* webhooks' resource and `GET /v1/customer/disputes/{id}`). */
export const PayPalDispute = Schema.Struct({
  dispute_id: Schema.String,
  create_time: Schema.optional(Schema.String),
  update_time: Schema.optional(Schema.String),
  disputed_transactions: Schema.optional(Schema.Array(Schema.Struct({
    seller_transaction_id: Schema.optional(Schema.String),
    custom: Schema.optional(Schema.String)
  }))),
  reason: Schema.optional(Schema.String),
  external_reason_code: Schema.optional(Schema.String),
  status: Schema.String,
  dispute_amount: Schema.optional(Money),
  dispute_outcome: Schema.optional(Schema.Struct({ outcome_code: Schema.optional(Schema.String) })),
  dispute_life_cycle_stage: Schema.optional(Schema.String),
  seller_response_due_date: Schema.optional(Schema.String)
})
export type PayPalDispute = typeof PayPalDispute.Type

/** PayPal's reasons (`dispute_reason`), in ours; its own is kept as `reason_code`. */
const REASONS: Readonly<Record<string, DisputeReason>> = {
  MERCHANDISE_OR_SERVICE_NOT_RECEIVED: "product_not_received",
  MERCHANDISE_OR_SERVICE_NOT_AS_DESCRIBED: "product_unacceptable",
  UNAUTHORISED: "fraudulent",
  CREDIT_NOT_PROCESSED: "credit_not_processed",
  DUPLICATE_TRANSACTION: "duplicate",
  INCORRECT_AMOUNT: "incorrect_amount",
  // The customer says they paid for it another way: charged twice, as Stripe's `duplicate` counts it.
  PAYMENT_BY_OTHER_MEANS: "duplicate",
  CANCELED_RECURRING_BILLING: "subscription_canceled"
}

const STAGES: Readonly<Record<string, DisputeStage>> = {
  INQUIRY: "inquiry",
  CHARGEBACK: "chargeback",
  PRE_ARBITRATION: "pre_arbitration",
  ARBITRATION: "arbitration"
}

/**
 * A resolved dispute's outcome in our statuses: the customer's favour is lost; the merchant's, a
 * payout by PayPal, a claim denied or canceled by the customer are won (an inquiry's:
 * `warning_closed`); the merchant's acceptance is `accepted`.
 */
const outcomeOf = (outcome: string | undefined, stage: DisputeStage): DisputeStatus | undefined => {
  switch (outcome) {
    case "RESOLVED_BUYER_FAVOUR":
      return "lost"
    case "ACCEPTED":
      return "accepted"
    case "RESOLVED_SELLER_FAVOUR":
    case "RESOLVED_WITH_PAYOUT":
    case "CANCELED_BY_BUYER":
    case "DENIED":
      return stage === "inquiry" ? "warning_closed" : "won"
    default:
      return undefined
  }
}

/** PayPal's status in ours: waiting for the merchant needs a response; waiting for the customer or PayPal is under review. */
const statusOf = (dispute: PayPalDispute, stage: DisputeStage): DisputeStatus | undefined => {
  switch (dispute.status) {
    case "OPEN":
    case "WAITING_FOR_SELLER_RESPONSE":
      return "needs_response"
    case "WAITING_FOR_BUYER_RESPONSE":
    case "UNDER_REVIEW":
      return "under_review"
    case "RESOLVED":
      return outcomeOf(dispute.dispute_outcome?.outcome_code, stage)
    default:
      return undefined
  }
}

const millis = (time: string | undefined): number | undefined => {
  const parsed = time === undefined ? Number.NaN : Date.parse(time)
  return Number.isNaN(parsed) ? undefined : parsed
}

/**
 * What a PayPal dispute says, dated by its `update_time` (when PayPal last changed it, the same in a
 * webhook and in a read); `undefined` when it cannot be read as one of ours (a status or outcome
 * PayPal does not document, no amount, no date).
 */
export const factOfPayPalDispute = (dispute: PayPalDispute): DisputeFact | undefined => {
  const stage = STAGES[dispute.dispute_life_cycle_stage ?? "CHARGEBACK"]
  const status = stage === undefined ? undefined : statusOf(dispute, stage)
  const amount = dispute.dispute_amount === undefined ? undefined : fromPayPalMoney(dispute.dispute_amount)
  const occurredAtMillis = millis(dispute.update_time) ?? millis(dispute.create_time)
  if (stage === undefined || status === undefined || amount === undefined || occurredAtMillis === undefined) return undefined
  const transaction = dispute.disputed_transactions?.[0]
  return {
    pspDisputeId: dispute.dispute_id,
    // Our orders carry the attempt id as `custom_id`, which the disputed transaction echoes as `custom`.
    reference: transaction?.custom ?? null,
    pspPaymentId: null,
    status,
    stage,
    amount,
    currency: dispute.dispute_amount!.currency_code.toUpperCase() as Currency,
    reason: REASONS[dispute.reason ?? ""] ?? "general",
    reasonCode: dispute.external_reason_code ?? dispute.reason ?? null,
    evidenceDueByMillis: millis(dispute.seller_response_due_date) ?? null,
    // PayPal's dispute states no fee (its `fee_policy` has no amount).
    fee: null,
    occurredAtMillis
  }
}

const decodeDispute = Schema.decodeUnknownOption(PayPalDispute)

/** A CUSTOMER.DISPUTE.CREATED, UPDATED or RESOLVED event's resource in the port's terms. */
export const disputeEventOf = (eventId: string, resource: unknown): ReadonlyArray<ProviderEvent> => {
  const dispute = decodeDispute(resource)
  const fact = dispute._tag === "None" ? undefined : factOfPayPalDispute(dispute.value)
  return fact === undefined ? [] : [ProviderEvent.DisputeUpdated({ eventId, fact })]
}
