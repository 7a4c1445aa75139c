import { failureMessage } from "@orchestrator/core"
import { Schema } from "effect"

/** Stripe's error object (`{"error": {...}}`), the fields we read. */
export const StripeError = Schema.Struct({
  type: Schema.optional(Schema.String),
  code: Schema.optional(Schema.NullOr(Schema.String)),
  decline_code: Schema.optional(Schema.NullOr(Schema.String)),
  message: Schema.optional(Schema.NullOr(Schema.String)),
  param: Schema.optional(Schema.NullOr(Schema.String)),
  payment_intent: Schema.optional(Schema.NullOr(Schema.Struct({ id: Schema.String })))
})
export type StripeError = typeof StripeError.Type

export const StripeErrorBody = Schema.Struct({ error: StripeError })

/**
 * A failure in our terms: the code the API shows, our message for it, whether another try may
 * succeed, and Stripe's own message (for the attempt record only).
 */
export interface StripeFailure {
  readonly code: string
  readonly message: string
  readonly retryable: boolean
  readonly providerMessage: string | undefined
}

/**
 * Stripe's codes (`decline_code` first: the issuer's reason, then `code`) to ours. What is not
 * listed is a decline or an invalid request, never retried.
 */
const CODES: Readonly<Record<string, string>> = {
  insufficient_funds: "insufficient_funds",
  expired_card: "expired_card",
  incorrect_cvc: "incorrect_cvc",
  invalid_cvc: "incorrect_cvc",
  incorrect_number: "incorrect_number",
  invalid_number: "incorrect_number",
  invalid_expiry_month: "invalid_expiry",
  invalid_expiry_year: "invalid_expiry",
  lost_card: "lost_card",
  stolen_card: "stolen_card",
  fraudulent: "fraudulent",
  processing_error: "processing_error",
  try_again_later: "try_again_later",
  authentication_required: "authentication_required",
  payment_intent_authentication_failure: "authentication_failed",
  card_decline_rate_limit_exceeded: "card_declined",
  card_declined: "card_declined",
  amount_too_small: "amount_too_small",
  amount_too_large: "amount_too_large",
  charge_already_captured: "charge_already_captured",
  charge_already_refunded: "charge_already_refunded",
  charge_expired_for_capture: "authorization_expired",
  payment_intent_unexpected_state: "payment_intent_unexpected_state",
  rate_limit: "rate_limited",
  lock_timeout: "rate_limited"
}

/** Failures worth another try: Stripe's processing errors, its rate limits and its own errors. */
const RETRYABLE = new Set(["processing_error", "rate_limited"])

/** Stripe's error, with the HTTP status it came with, as our failure. */
export const failureOf = (error: StripeError, status: number): StripeFailure => {
  const ours = (code: string, retryable: boolean): StripeFailure => ({
    code,
    message: failureMessage(code),
    retryable,
    providerMessage: error.message ?? undefined
  })
  if (status === 429) return ours("rate_limited", true)
  if (error.type === "api_error") return ours("processing_error", true)
  const known = (error.decline_code && CODES[error.decline_code]) || (error.code && CODES[error.code])
  if (known) return ours(known, RETRYABLE.has(known))
  if (error.type === "card_error") return ours("card_declined", false)
  if (error.code === "resource_missing" && error.param === "payment_method") return ours("invalid_payment_method", false)
  return ours("invalid_request", false)
}
