import { scrubCardNumbers } from "../vault/CardChecks.js"

/**
 * Our own message for each normalized failure code a PSP connector reports. A PSP's words never
 * reach a merchant: its text may be anything the base URL answered (an internal page, a stack
 * trace), so merchants see the code and these sentences; the PSP's raw text stays on the attempt.
 */
const MESSAGES: Readonly<Record<string, string>> = {
  // Declines: the card or its issuer said no.
  card_declined: "The card was declined.",
  insufficient_funds: "The card has insufficient funds.",
  expired_card: "The card has expired.",
  incorrect_cvc: "The card's security code is incorrect.",
  incorrect_number: "The card number is incorrect.",
  invalid_expiry: "The card's expiry date is invalid.",
  lost_card: "The card was declined (reported lost).",
  stolen_card: "The card was declined (reported stolen).",
  fraudulent: "The payment was declined as suspected fraud.",
  invalid_amount: "The amount was refused by the card issuer.",
  amount_too_small: "The amount is below the provider's minimum.",
  amount_too_large: "The amount is above the provider's maximum.",
  // Authentication (3D Secure).
  authentication_required: "The card issuer requires customer authentication (3D Secure).",
  authentication_failed: "Customer authentication (3D Secure) failed.",
  authentication_unsupported: "The provider asked for an authentication step this integration cannot show the customer.",
  // The provider's own trouble, or ours reaching it.
  processing_error: "The payment provider could not process the payment.",
  try_again_later: "The payment provider asked to try again later.",
  rate_limited: "The payment provider is receiving too many requests.",
  provider_unavailable: "The payment provider could not be reached.",
  // Requests the provider turned away.
  invalid_request: "The payment provider refused the request.",
  invalid_payment_method: "The payment method is not valid at this provider.",
  // Ours: the vault could not read the card (deleted, or its keys or data are not as they were stored).
  payment_method_unusable: "The vaulted card could not be used; ask the customer for their card again.",
  payment_method_declined: "The payment method was declined (its wallet or funding source said no).",
  canceled: "The payment was canceled.",
  // Captures, cancels and refunds.
  capture_failed: "The capture failed.",
  charge_already_captured: "The payment was already captured.",
  charge_already_refunded: "The payment was already refunded.",
  authorization_expired: "The authorization expired before it was captured.",
  payment_intent_unexpected_state: "The payment is not in a state that allows this operation.",
  refund_failed: "The refund failed.",
  refund_canceled: "The refund was canceled."
}

/** Whether `code` is one of our normalized failure codes (a bounded set, fit for a metric's label). */
export const isKnownFailureCode = (code: string): boolean => Object.hasOwn(MESSAGES, code)

/** Our message for a normalized failure code; a code we do not describe gets a generic sentence. */
export const failureMessage = (code: string): string => MESSAGES[code] ?? "The payment provider refused the request."

/** The longest PSP text kept, in UTF-8 bytes: enough to diagnose, too little to store a page. */
export const PROVIDER_TEXT_LIMIT = 1024

/**
 * A PSP's raw text as it is kept on an attempt: the first KiB (cut on a character boundary), NUL
 * replaced (PostgreSQL text cannot hold it), and any card number in it replaced (an error page, a
 * proxy's or a WAF's, may echo the request that carried a vaulted card).
 */
export const providerText = (text: string): string => {
  // eslint-disable-next-line no-control-regex -- NUL is exactly what is replaced
  const clean = scrubCardNumbers(text.replace(/\u0000/g, "\uFFFD"))
  const encoder = new TextEncoder()
  if (encoder.encode(clean).length <= PROVIDER_TEXT_LIMIT) return clean
  let bytes = 0
  let end = 0
  for (const char of clean) {
    const size = encoder.encode(char).length
    if (bytes + size > PROVIDER_TEXT_LIMIT) break
    bytes += size
    end += char.length
  }
  return clean.slice(0, end)
}
