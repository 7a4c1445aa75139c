import { Schema } from "effect"
import { Currency } from "../domain/Currency.js"
import { Metadata } from "../domain/Metadata.js"
import { Amount } from "../domain/Money.js"
import { RequestBody } from "../domain/RequestBody.js"
import { BoundedString } from "../domain/Text.js"
import { Timestamp } from "../domain/Timestamp.js"
import { Failure } from "../payments/Payment.js"

export const RefundStatus = Schema.Literal("pending", "succeeded", "failed")
export type RefundStatus = typeof RefundStatus.Type

export class Refund extends Schema.Class<Refund>("Refund")({
  object: Schema.Literal("refund"),
  id: Schema.String,
  payment_id: Schema.String,
  amount: Amount,
  currency: Currency,
  status: RefundStatus,
  reason: Schema.NullOr(Schema.String),
  provider_refund_id: Schema.NullOr(Schema.String),
  /** Why a refund failed, as the PSP put it; `null` otherwise. */
  failure: Schema.NullOr(Failure),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
  livemode: Schema.Boolean
}) {}

/** Body of `POST /v1/payments/{id}/refund`; without `amount` the whole refundable balance is refunded. */
export const CreateRefund = RequestBody("CreateRefund", {
  amount: Schema.optional(Amount),
  reason: Schema.optional(BoundedString),
  metadata: Schema.optional(Metadata)
})
export type CreateRefund = typeof CreateRefund.Type
