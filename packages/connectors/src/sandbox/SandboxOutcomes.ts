import { AuthorizationOutcome, type CardDetails, RefundOutcome } from "@orchestrator/core"
import type { SandboxCharge, SandboxRefund } from "./SandboxLedger.js"
import { cardForToken } from "./SandboxTokens.js"

// What the sandbox answers about a charge or a refund it holds, in the connector port's terms: the
// same whether the connector is asked or a webhook reports it.

const unknownCard: CardDetails = { brand: null, last4: null, country: null }

export const challengePath = (chargeId: string) => `/sandbox/3ds/${chargeId}`

/** How the sandbox reports a charge it holds, in the connector port's terms. */
export const outcomeOfCharge = (
  charge: Pick<SandboxCharge, "id" | "token" | "status" | "amountCaptured" | "failureCode" | "failureMessage">,
  baseUrl: string
): AuthorizationOutcome => {
  const card = cardForToken(charge.token)?.card ?? unknownCard
  switch (charge.status) {
    case "succeeded":
    case "authorized":
      return AuthorizationOutcome.Authorized({
        pspPaymentId: charge.id,
        captured: charge.status === "succeeded",
        amountCaptured: charge.amountCaptured,
        card
      })
    case "requires_action":
      return AuthorizationOutcome.ActionRequired({
        pspPaymentId: charge.id,
        redirectUrl: `${baseUrl}${challengePath(charge.id)}`,
        card
      })
    case "failed":
    case "canceled":
      return AuthorizationOutcome.Refused({
        pspPaymentId: charge.id,
        code: charge.failureCode ?? "canceled",
        message: charge.failureMessage ?? "The payment was canceled.",
        retryable: charge.failureCode === "processing_error",
        card
      })
  }
}

export const refundOutcome = (
  refund: Pick<SandboxRefund, "id" | "status" | "failureCode" | "failureMessage">
): RefundOutcome =>
  refund.status === "succeeded"
    ? RefundOutcome.Succeeded({ pspRefundId: refund.id })
    : refund.status === "pending"
    ? RefundOutcome.Pending({ pspRefundId: refund.id })
    : RefundOutcome.Failed({
      pspRefundId: refund.id,
      code: refund.failureCode ?? "refund_failed",
      message: refund.failureMessage ?? "The refund failed."
    })
