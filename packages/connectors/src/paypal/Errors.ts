import { failureMessage } from "@orchestrator/core"
import type { PayPalError } from "./Wire.js"

/** A failure in our terms: our code and message, whether another try may succeed, PayPal's own words. */
export interface PayPalFailure {
  readonly code: string
  readonly message: string
  readonly retryable: boolean
  readonly providerMessage: string | undefined
}

/**
 * PayPal's `details[].issue` codes (Orders v2 and Payments v2 documents) to ours. What is not
 * listed is an invalid request, never retried.
 */
const ISSUES: Readonly<Record<string, string>> = {
  INSTRUMENT_DECLINED: "payment_method_declined",
  PAYER_CANNOT_PAY: "payment_method_declined",
  TRANSACTION_REFUSED: "payment_method_declined",
  PAYER_ACCOUNT_RESTRICTED: "payment_method_declined",
  PAYER_ACCOUNT_LOCKED_OR_CLOSED: "payment_method_declined",
  MAX_NUMBER_OF_PAYMENT_ATTEMPTS_EXCEEDED: "payment_method_declined",
  COMPLIANCE_VIOLATION: "fraudulent",
  ORDER_NOT_APPROVED: "authentication_required",
  PAYER_ACTION_REQUIRED: "authentication_required",
  ORDER_EXPIRED: "canceled",
  ORDER_ALREADY_CAPTURED: "charge_already_captured",
  PREVIOUSLY_CAPTURED: "charge_already_captured",
  PREVIOUSLY_VOIDED: "canceled",
  CANNOT_BE_VOIDED: "payment_intent_unexpected_state",
  AUTHORIZATION_EXPIRED: "authorization_expired",
  MAX_CAPTURE_AMOUNT_EXCEEDED: "invalid_amount",
  DECIMAL_PRECISION: "invalid_amount",
  CURRENCY_NOT_SUPPORTED: "invalid_request",
  CAPTURE_FULLY_REFUNDED: "charge_already_refunded",
  REFUND_AMOUNT_EXCEEDED: "invalid_amount",
  REFUND_TIME_LIMIT_EXCEEDED: "refund_failed",
  REFUND_NOT_ALLOWED: "refund_failed"
}

/** PayPal's error, with the HTTP status it came with, as our failure. */
export const failureOf = (error: PayPalError, status: number): PayPalFailure => {
  const issue = error.details?.[0]?.issue
  const providerMessage = [issue, error.details?.[0]?.description ?? error.message].filter(Boolean).join(": ") || undefined
  const code = status === 429 ? "rate_limited" : (issue !== undefined ? ISSUES[issue] : undefined) ?? "invalid_request"
  return { code, message: failureMessage(code), retryable: code === "rate_limited", providerMessage }
}

/** The fine-grained issue PayPal gave, if any. */
export const issueOf = (error: PayPalError): string | undefined => error.details?.[0]?.issue
