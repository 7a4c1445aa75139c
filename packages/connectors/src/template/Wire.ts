import { Schema } from "effect"

/**
 * The Template API's request and answer shapes, as its published document describes them: only the
 * fields we send or read. Answers are decoded with these, so a 2xx we cannot read is an unknown
 * outcome (reconciliation asks again), never a guess. Amounts are in the PSP's own units: convert
 * with the currency's exponent (see `PspUnits.ts`), never with floats.
 */

/** The body of "create a payment". */
export const CreatePayment = Schema.Struct({
  amount: Schema.Int,
  currency: Schema.String,
  /** Our attempt id: how the PSP's records and webhooks name the payment for us. */
  reference: Schema.String,
  payment_method: Schema.String,
  capture: Schema.Boolean,
  return_url: Schema.String
})
export type CreatePayment = typeof CreatePayment.Type

/** A payment as the PSP answers it. */
export const Payment = Schema.Struct({
  id: Schema.String,
  reference: Schema.String,
  status: Schema.Literal("authorized", "captured", "declined", "pending", "action_required", "canceled"),
  amount: Schema.Int,
  currency: Schema.String,
  decline_code: Schema.optional(Schema.NullOr(Schema.String)),
  redirect_url: Schema.optional(Schema.NullOr(Schema.String))
})
export type Payment = typeof Payment.Type

/** The PSP's error answer. */
export const ErrorAnswer = Schema.Struct({
  code: Schema.String,
  message: Schema.optional(Schema.String)
})
