import { failureMessage } from "@orchestrator/core"
import type { ErrorBody } from "./Wire.js"

/**
 * Checkout.com's `response_code`s (checkout.com/docs/resources/codes/http-response-codes) to our
 * failure codes. 20xxx are soft declines, 30xxx hard ones, 40xxx risk; an unlisted code in those
 * ranges is a plain decline.
 */
const RESPONSE_CODES: Readonly<Record<string, string>> = {
  "20005": "card_declined",
  "20012": "card_declined",
  "20013": "invalid_amount",
  "20014": "incorrect_number",
  "20015": "incorrect_number",
  "20051": "insufficient_funds",
  "20054": "expired_card",
  "20057": "card_declined",
  "20059": "fraudulent",
  "20061": "insufficient_funds",
  "20062": "card_declined",
  "20068": "processing_error",
  "20082": "incorrect_cvc",
  "20087": "incorrect_cvc",
  "20091": "processing_error",
  "20096": "processing_error",
  "20100": "invalid_expiry",
  "20150": "authentication_failed",
  "20151": "authentication_failed",
  "20152": "authentication_failed",
  "20153": "processing_error",
  "20154": "authentication_required",
  "30004": "card_declined",
  "30007": "fraudulent",
  "30015": "incorrect_number",
  "30041": "lost_card",
  "30043": "stolen_card",
  "40101": "fraudulent",
  "40201": "fraudulent"
}

/** Declines worth another try (possibly at another provider): the issuer's or the network's trouble, not the card's. */
const RETRYABLE = new Set(["processing_error"])

/** A decline (`approved: false`) in our terms; Checkout.com's code and summary kept for the attempt record. */
export const failureOfResponse = (responseCode: string | undefined, summary: string | undefined) => {
  const code = (responseCode === undefined ? undefined : RESPONSE_CODES[responseCode]) ?? "card_declined"
  const providerMessage = [responseCode, summary].filter((part) => part !== undefined && part !== "").join(" ")
  return {
    code,
    message: failureMessage(code),
    retryable: RETRYABLE.has(code),
    providerMessage: providerMessage === "" ? undefined : providerMessage
  }
}

/** `error_codes` of a 422 to ours: a bad token or card source is the payment method's fault. */
const ERROR_CODES: ReadonlyArray<readonly [pattern: RegExp, ours: string]> = [
  [/^(token|source|source_id|card_number|payment_source)_/, "invalid_payment_method"],
  [/^currency_/, "currency_not_supported"],
  [/^(capture|void|refund)_(amount_)?(not_allowed|exceeds|invalid)/, "payment_intent_unexpected_state"]
]

/** Checkout.com turned the request away (4xx): our code and message, its words for the attempt record. */
export const refusalOfError = (status: number, error: ErrorBody) => {
  const codes = error.error_codes ?? []
  const found = codes.flatMap((each) => ERROR_CODES.find(([pattern]) => pattern.test(each))?.[1] ?? [])[0]
  const code = status === 403 ? "payment_intent_unexpected_state" : found ?? "invalid_request"
  const providerMessage = [`HTTP ${status}`, error.error_type, ...codes].filter((part) => part !== undefined).join(" ")
  return { code, message: failureMessage(code), providerMessage }
}
