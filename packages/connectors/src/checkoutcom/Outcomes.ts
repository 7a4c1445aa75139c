import { AuthorizationOutcome, type CardDetails, failureMessage } from "@orchestrator/core"
import { fromCheckoutComAmount } from "./Amounts.js"
import { failureOfResponse } from "./Refusals.js"
import type { PaymentAccepted, PaymentDetails, PaymentProcessed, ResponseSource } from "./Wire.js"

/** The metadata key telling which capture our payment asked for (Checkout.com echoes metadata back). */
export const CAPTURE_KEY = "capture"

export const noCard: CardDetails = { brand: null, last4: null, country: null }

/** What Checkout.com tells about the card: its scheme, last four digits and issuer country. */
export const cardOf = (source: ResponseSource | undefined): CardDetails =>
  source === undefined ? noCard : {
    brand: source.scheme?.toLowerCase() ?? null,
    last4: source.last4 ?? null,
    country: source.issuer_country?.toUpperCase() ?? null
  }

/** Whether the payment asked for automatic capture: our metadata says; Checkout.com's default is to capture. */
export const capturesAutomatically = (metadata: Readonly<Record<string, unknown>> | undefined) => metadata?.[CAPTURE_KEY] !== "manual"

export const declined = (pspPaymentId: string, responseCode: string | undefined, summary: string | undefined, card: CardDetails) =>
  AuthorizationOutcome.Refused({ pspPaymentId, ...failureOfResponse(responseCode, summary), card })

export const canceled = (pspPaymentId: string, card: CardDetails, providerMessage: string) =>
  AuthorizationOutcome.Refused({ pspPaymentId, code: "canceled", message: failureMessage("canceled"), retryable: false, card, providerMessage })

/**
 * A 201 to `POST /payments`. Checkout.com answers `Authorized` even when it captures on its own a
 * moment later: with `capture: true` asked, the payment counts as captured, as Adyen's does.
 */
export const outcomeOfProcessed = (payment: PaymentProcessed, request: { readonly amount: number; readonly capture: boolean }) => {
  const card = cardOf(payment.source)
  if (!payment.approved) return declined(payment.id, payment.response_code, payment.response_summary, card)
  const captured = request.capture || payment.status === "Captured" || payment.status === "Paid"
  return AuthorizationOutcome.Authorized({
    pspPaymentId: payment.id,
    captured,
    amountCaptured: captured ? request.amount : 0,
    card,
    networkTransactionId: payment.scheme_id
  })
}

/** A 202 to `POST /payments`: the customer's page (3DS, a redirect method) or news later. */
export const outcomeOfAccepted = (payment: PaymentAccepted) =>
  payment._links?.redirect === undefined
    ? AuthorizationOutcome.Pending({ pspPaymentId: payment.id, card: noCard })
    : AuthorizationOutcome.ActionRequired({ pspPaymentId: payment.id, redirectUrl: payment._links.redirect.href, card: noCard })

/** The statuses past capture: the money moved (and maybe part of it back). */
const CAPTURED = new Set(["Captured", "Partially Captured", "Paid", "Partially Refunded", "Refunded"])

/**
 * `GET /payments/{id}` in the port's terms. A decline's reason is not in the details (its caller
 * finds it among the payment's actions): here it is a plain decline.
 */
export const outcomeOfDetails = (payment: PaymentDetails): AuthorizationOutcome => {
  const card = cardOf(payment.source)
  const amount = fromCheckoutComAmount(payment.amount, payment.currency)
  if (CAPTURED.has(payment.status)) {
    const captured = payment.balances?.total_captured
    return AuthorizationOutcome.Authorized({
      pspPaymentId: payment.id,
      captured: true,
      amountCaptured: captured === undefined || captured === 0 ? amount : fromCheckoutComAmount(captured, payment.currency),
      card,
      networkTransactionId: payment.scheme_id
    })
  }
  switch (payment.status) {
    case "Authorized":
    case "Card Verified": {
      const captured = capturesAutomatically(payment.metadata)
      return AuthorizationOutcome.Authorized({
        pspPaymentId: payment.id,
        captured,
        amountCaptured: captured ? amount : 0,
        card,
        networkTransactionId: payment.scheme_id
      })
    }
    case "Declined":
      return declined(payment.id, undefined, undefined, card)
    case "Voided":
    case "Cancelled":
    case "Expired":
      return canceled(payment.id, card, payment.status)
    default:
      return payment._links?.redirect === undefined
        ? AuthorizationOutcome.Pending({ pspPaymentId: payment.id, card })
        : AuthorizationOutcome.ActionRequired({ pspPaymentId: payment.id, redirectUrl: payment._links.redirect.href, card })
  }
}
