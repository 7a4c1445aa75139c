import { expect } from "@effect/vitest"
import { AuthorizationOutcome, type PaymentConnector, RefundOutcome } from "@orchestrator/core"
import { Effect } from "effect"
import { authorizeRequest, EUR } from "./fixtures.js"

/** The sandbox connector calls its tests share: charge, authorize only, refund, and the ids their outcomes carry. */
export const visa = { brand: "visa", last4: "4242", country: "US" }

/** The pspPaymentId of an outcome that must carry one. */
export const pspIdOf = (outcome: AuthorizationOutcome): string => {
  if (outcome._tag === "Unknown" || outcome.pspPaymentId === null) {
    throw new Error(`expected an outcome with a pspPaymentId, got ${outcome._tag}`)
  }
  return outcome.pspPaymentId
}

export const refundIdOf = (outcome: RefundOutcome): string | null => outcome._tag === "Unknown" ? null : outcome.pspRefundId

/** Authorizes with `capture: false` and returns the pspPaymentId of the authorization. */
export const authorizeOnly = (connector: PaymentConnector, reference = "att_auth") =>
  Effect.map(
    connector.authorize(authorizeRequest("tok_visa", { reference, capture: false })),
    (outcome) => {
      expect(outcome).toMatchObject({ _tag: "Authorized", captured: false })
      return pspIdOf(outcome)
    }
  )

/** Charges (captures) 10.50 EUR with `token` and returns the pspPaymentId. */
export const charge = (connector: PaymentConnector, token = "tok_visa", reference = "att_charge") =>
  Effect.map(connector.authorize(authorizeRequest(token, { reference })), (outcome) => {
    expect(outcome).toMatchObject({ _tag: "Authorized", captured: true })
    return pspIdOf(outcome)
  })

export const refund = (connector: PaymentConnector, pspPaymentId: string, amount: number, reference: string) =>
  connector.refund({ reference, pspPaymentId, amount, currency: EUR, reason: null })
