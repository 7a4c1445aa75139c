import { AuthorizationOutcome, type CardDetails, failureMessage, RefundOutcome } from "@orchestrator/core"
import { fromMollieAmount } from "./Amounts.js"
import { failureOfPayment } from "./Failures.js"
import type { Payment, Refund } from "./Wire.js"

/** Mollie's card labels (`payment-details-card-label-response`) as the brands our API shows. */
const BRANDS: Readonly<Record<string, string>> = {
  "American Express": "amex",
  "Diners Club": "diners",
  Mastercard: "mastercard",
  Visa: "visa",
  Maestro: "maestro",
  JCB: "jcb",
  Discover: "discover",
  Unionpay: "unionpay"
}

/** What Mollie says about the card of a card payment; nothing for other methods. */
export const cardOfPayment = (payment: Payment): CardDetails => {
  const details = payment.method === "creditcard" ? payment.details : undefined
  const label = details?.cardLabel ?? null
  const number = details?.cardNumber ?? null
  return {
    brand: label === null ? null : BRANDS[label] ?? label.toLowerCase().replace(/\s+/g, "_"),
    last4: number !== null && /^\d{4}$/.test(number.slice(-4)) ? number.slice(-4) : null,
    country: details?.cardCountryCode?.toUpperCase() ?? null
  }
}

/**
 * What a payment's status means for ours: `paid` is captured (by what Mollie says it captured),
 * `authorized` waits for a capture, `failed`/`canceled`/`expired` are refusals, and `open` is the
 * customer's turn on Mollie's checkout (its `_links.checkout`), or Mollie's while it has none.
 */
export const outcomeOfPayment = (payment: Payment): AuthorizationOutcome => {
  const card = cardOfPayment(payment)
  const pspPaymentId = payment.id
  switch (payment.status) {
    case "paid": {
      const amountCaptured = fromMollieAmount(payment.amountCaptured ?? payment.amount)
      // An amount we cannot read is Mollie's news we cannot believe: asked again later.
      if (amountCaptured === undefined) return AuthorizationOutcome.Pending({ pspPaymentId, card })
      return AuthorizationOutcome.Authorized({ pspPaymentId, captured: true, amountCaptured, card })
    }
    case "authorized":
      return AuthorizationOutcome.Authorized({ pspPaymentId, captured: false, amountCaptured: 0, card })
    case "failed":
    case "canceled":
    case "expired":
      return AuthorizationOutcome.Refused({ pspPaymentId, ...failureOfPayment(payment), card })
    case "open": {
      const checkout = payment._links.checkout?.href
      return checkout === undefined
        ? AuthorizationOutcome.Pending({ pspPaymentId, card })
        : AuthorizationOutcome.ActionRequired({ pspPaymentId, redirectUrl: checkout, card })
    }
    default:
      // `pending` and any status Mollie adds later: it settles it and calls the webhook.
      return AuthorizationOutcome.Pending({ pspPaymentId, card })
  }
}

/** What a refund's status means for ours (`refund-status`: queued, pending, processing, refunded, failed, canceled). */
export const outcomeOfRefund = (refund: Refund): RefundOutcome => {
  switch (refund.status) {
    case "refunded":
      return RefundOutcome.Succeeded({ pspRefundId: refund.id })
    case "failed":
      return RefundOutcome.Failed({
        pspRefundId: refund.id,
        code: "refund_failed",
        message: failureMessage("refund_failed"),
        providerMessage: "Mollie: the refund failed"
      })
    case "canceled":
      return RefundOutcome.Failed({
        pspRefundId: refund.id,
        code: "refund_canceled",
        message: failureMessage("refund_canceled"),
        providerMessage: "Mollie: the refund was canceled"
      })
    default:
      return RefundOutcome.Pending({ pspRefundId: refund.id })
  }
}
