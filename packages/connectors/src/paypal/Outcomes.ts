import { AuthorizationOutcome, type CardDetails, failureMessage } from "@orchestrator/core"
import { fromPayPalMoney } from "./Amounts.js"
import { approvalLinkOf, type Order } from "./Wire.js"

/** PayPal tells nothing of a card: the payer paid from their wallet. */
export const noCard: CardDetails = { brand: null, last4: null, country: null }

const refused = (pspPaymentId: string, code: string, providerMessage: string) =>
  AuthorizationOutcome.Refused({ pspPaymentId, code, message: failureMessage(code), retryable: false, card: noCard, providerMessage })

/** The sum of PayPal amounts in our minor units (a value we cannot read counts for nothing). */
const total = (items: ReadonlyArray<{ readonly amount?: { currency_code: string; value: string } | undefined }>) =>
  items.reduce((sum, item) => sum + (item.amount === undefined ? 0 : fromPayPalMoney(item.amount) ?? 0), 0)

/**
 * What an order means for our payment. The order's id is the payment's PSP id throughout: its
 * authorization and capture are found in it when a capture, void or refund needs them. An order
 * still waiting for the payer (`CREATED`, `PAYER_ACTION_REQUIRED`) sends them to its approval link;
 * an `APPROVED` one is the caller's to complete.
 */
export const outcomeOfOrder = (order: Order): AuthorizationOutcome => {
  const payments = order.purchase_units?.[0]?.payments
  const captures = payments?.captures ?? []
  const authorization = payments?.authorizations?.[0]
  const capture = captures[0]
  switch (order.status) {
    case "CREATED":
    case "SAVED":
    case "PAYER_ACTION_REQUIRED": {
      const link = approvalLinkOf(order.links)
      return link === undefined
        ? AuthorizationOutcome.Pending({ pspPaymentId: order.id, card: noCard })
        : AuthorizationOutcome.ActionRequired({ pspPaymentId: order.id, redirectUrl: link, card: noCard })
    }
    case "VOIDED":
      return refused(order.id, "canceled", "the order was voided")
    case "APPROVED":
      // Approved by the payer, not yet captured or authorized: nothing moved yet.
      return AuthorizationOutcome.Pending({ pspPaymentId: order.id, card: noCard })
    default:
      break
  }
  if (capture !== undefined && authorization === undefined) {
    switch (capture.status) {
      case "COMPLETED":
      case "PARTIALLY_REFUNDED":
      case "REFUNDED":
        return AuthorizationOutcome.Authorized({ pspPaymentId: order.id, captured: true, amountCaptured: total(captures), card: noCard })
      case "DECLINED":
      case "FAILED":
        return refused(order.id, "payment_method_declined", `the capture is ${capture.status}`)
      default:
        return AuthorizationOutcome.Pending({ pspPaymentId: order.id, card: noCard })
    }
  }
  if (authorization !== undefined) {
    switch (authorization.status) {
      case "CREATED":
        return AuthorizationOutcome.Authorized({ pspPaymentId: order.id, captured: false, amountCaptured: 0, card: noCard })
      case "CAPTURED":
      case "PARTIALLY_CAPTURED": {
        const done = captures.filter((each) => each.status !== "DECLINED" && each.status !== "FAILED")
        return AuthorizationOutcome.Authorized({ pspPaymentId: order.id, captured: true, amountCaptured: total(done), card: noCard })
      }
      case "VOIDED":
        return refused(order.id, "canceled", "the authorization was voided")
      case "DENIED":
        return refused(order.id, "payment_method_declined", "the authorization was denied")
      default:
        return AuthorizationOutcome.Pending({ pspPaymentId: order.id, card: noCard })
    }
  }
  return AuthorizationOutcome.Pending({ pspPaymentId: order.id, card: noCard })
}
