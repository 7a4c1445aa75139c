import { Schema } from "effect"
import { Currency } from "../Currency.js"
import { field, optionalField } from "../Field.js"
import { Metadata } from "../Metadata.js"
import { Amount } from "../Money.js"
import { Failure } from "../payments/Payment.js"
import { RequestBody } from "../RequestBody.js"
import { BoundedString } from "../Text.js"
import { Timestamp } from "../Timestamp.js"

export const RefundStatus = Schema.Literal("pending", "succeeded", "failed")
export type RefundStatus = typeof RefundStatus.Type

export class Refund extends Schema.Class<Refund>("Refund")({
  object: field(Schema.Literal("refund"), "Always `refund`."),
  id: field(Schema.String, "The refund's id (`ref_…`)."),
  payment_id: field(Schema.String, "The payment refunded (`pay_…`)."),
  amount: field(Amount, "The amount refunded, in minor units of `currency`."),
  currency: field(Currency, "The payment's currency (ISO 4217)."),
  status: field(RefundStatus, "`pending` until the PSP confirms, then `succeeded` or `failed`."),
  reason: field(Schema.NullOr(Schema.String), "Why, as you sent it (e.g. `requested_by_customer`)."),
  provider_refund_id: field(Schema.NullOr(Schema.String), "The PSP's own id for the refund, once it gave one."),
  /** Why a refund failed, as the PSP put it; `null` otherwise. */
  failure: field(Schema.NullOr(Failure), "Why the refund failed (`failed` only); else `null`."),
  metadata: field(Metadata, "Your own key-value pairs, as sent."),
  created_at: field(Timestamp, "When the refund was created (ISO 8601 UTC)."),
  updated_at: field(Timestamp, "When the refund last changed (ISO 8601 UTC)."),
  livemode: field(Schema.Boolean, "`true` for live money, `false` for test mode.")
}) {}

/** Body of `POST /v1/payments/{id}/refund`; without `amount` the whole refundable balance is refunded. */
export const CreateRefund = RequestBody("CreateRefund", {
  amount: optionalField(Amount, "How much to refund, in minor units; default whatever is left to refund."),
  reason: optionalField(BoundedString, "Why, for your records (e.g. `requested_by_customer`, `duplicate`, `fraudulent`)."),
  metadata: optionalField(Metadata, "Your own key-value pairs.")
})
export type CreateRefund = typeof CreateRefund.Type
