import { failureMessage } from "@orchestrator/core"
import type { MollieError, Payment } from "./Wire.js"

/** A failure in our terms: our code, our message for it, whether another try may help, Mollie's words (kept, never shown). */
export interface MollieFailure {
  readonly code: string
  readonly message: string
  readonly retryable: boolean
  readonly providerMessage: string | undefined
}

/**
 * Mollie's `statusReason.code` of a failed card payment (`status-reason-card-scheme-response`,
 * `status-reason-merchant-response`) to ours. What is not listed is a plain decline.
 */
const REASONS: Readonly<Record<string, string>> = {
  insufficient_funds: "insufficient_funds",
  exceeds_withdrawal_amount_limit: "insufficient_funds",
  expired_card: "expired_card",
  lost_card: "lost_card",
  stolen_card: "stolen_card",
  pick_up_card_special_condition: "lost_card",
  capture_card: "lost_card",
  invalid_card_number: "incorrect_number",
  invalid_account_number: "incorrect_number",
  decline_for_cvv2_failure: "incorrect_cvc",
  missing_cvv2_cvc2: "incorrect_cvc",
  suspected_fraud: "fraudulent",
  fraud_security_related: "fraudulent",
  security_violation: "fraudulent",
  invalid_amount: "invalid_amount",
  card_authentication_failed: "authentication_failed",
  additional_customer_authentication_required: "authentication_required",
  issuer_unavailable: "processing_error",
  credit_issuer_unavailable: "processing_error",
  system_malfunction: "processing_error",
  unable_to_route_transaction: "processing_error",
  re_enter_transaction: "try_again_later",
  file_temporarily_unavailable: "try_again_later"
}

/** Failures worth another try: the issuer's or the network's trouble, not the card's. */
const RETRYABLE = new Set(["processing_error", "try_again_later", "rate_limited"])

const ours = (code: string, providerMessage: string | undefined): MollieFailure => ({
  code,
  message: failureMessage(code),
  retryable: RETRYABLE.has(code),
  providerMessage
})

/** Why a payment ended `failed`, `canceled` or `expired`, in our terms. */
export const failureOfPayment = (payment: Payment): MollieFailure => {
  const said = payment.statusReason?.message ?? payment.details?.failureReason ?? undefined
  switch (payment.status) {
    case "canceled":
      return ours("canceled", said ?? "the payment was canceled")
    case "expired":
      // The customer never finished Mollie's checkout in time (or an authorization lapsed).
      return ours("canceled", said ?? "the payment expired")
    default: {
      const reason = payment.statusReason?.code ?? payment.details?.failureReason ?? undefined
      return ours((reason !== undefined && REASONS[reason]) || "card_declined", said ?? reason)
    }
  }
}

/** Mollie turned the request away (a 4xx with its error object): our code; its own words for the record. */
export const failureOfError = (error: MollieError, fallback = "invalid_request"): MollieFailure => {
  const text = `${error.title} ${error.detail}`.trim() || undefined
  if (error.status === 429) return ours("rate_limited", text)
  if (error.field === "amount" || error.field === "amount.value") return ours("invalid_amount", text)
  if (error.field === "cardToken") return ours("invalid_payment_method", text)
  return ours(fallback, text)
}
