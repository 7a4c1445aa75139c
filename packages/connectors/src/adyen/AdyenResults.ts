import { AuthorizationOutcome, type CardDetails, failureMessage } from "@orchestrator/core"
import { Schema } from "effect"

/** `/payments` and `/payments/details` answers, the fields we read. */
export const PaymentResult = Schema.Struct({
  pspReference: Schema.optional(Schema.String),
  resultCode: Schema.optional(Schema.String),
  merchantReference: Schema.optional(Schema.String),
  refusalReason: Schema.optional(Schema.String),
  refusalReasonCode: Schema.optional(Schema.String),
  action: Schema.optional(Schema.Struct({
    type: Schema.String,
    url: Schema.optional(Schema.String),
    method: Schema.optional(Schema.String)
  })),
  additionalData: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
})
export type PaymentResult = typeof PaymentResult.Type

/** Adyen's `ServiceError`, the body of every non-2xx answer. */
export const ServiceError = Schema.Struct({
  status: Schema.optional(Schema.Number),
  errorCode: Schema.optional(Schema.String),
  errorType: Schema.optional(Schema.String),
  message: Schema.optional(Schema.String),
  pspReference: Schema.optional(Schema.String)
})
export type ServiceError = typeof ServiceError.Type

/** A modification's answer (capture, cancel, refund): always `received`, settled by notification. */
export const ModificationReceived = Schema.Struct({
  pspReference: Schema.String,
  status: Schema.Literal("received")
})

/** The scheme's id of the transaction (`ResponseAdditionalDataCommon.networkTxReference`), given for raw cards Adyen does not tokenize. */
const networkTxReferenceOf = (additionalData: PaymentResult["additionalData"]) => {
  const reference = additionalData?.networkTxReference
  return typeof reference === "string" && reference !== "" ? reference : undefined
}

/**
 * Adyen's refusal reasons (docs.adyen.com/development-resources/refusal-reasons), by code and by
 * the text a notification's `reason` carries, to our failure codes. Unlisted: a plain decline.
 */
const REFUSALS: ReadonlyArray<readonly [code: string, text: string, ours: string]> = [
  ["2", "Refused", "card_declined"],
  ["4", "Acquirer Error", "processing_error"],
  ["5", "Blocked Card", "card_declined"],
  ["6", "Expired Card", "expired_card"],
  ["7", "Invalid Amount", "invalid_amount"],
  ["8", "Invalid Card Number", "incorrect_number"],
  ["9", "Issuer Unavailable", "processing_error"],
  ["11", "3D Not Authenticated", "authentication_failed"],
  ["12", "Not enough balance", "insufficient_funds"],
  ["14", "Acquirer Fraud", "fraudulent"],
  ["15", "Cancelled", "canceled"],
  ["16", "Shopper Cancelled", "canceled"],
  ["20", "FRAUD", "fraudulent"],
  ["21", "Not Submitted", "processing_error"],
  ["22", "FRAUD-CANCELLED", "fraudulent"],
  ["24", "CVC Declined", "incorrect_cvc"],
  ["31", "Issuer Suspected Fraud", "fraudulent"],
  ["38", "Authentication required", "authentication_required"],
  ["42", "3DS Authentication Error", "authentication_failed"]
]

/** Failures worth another try: the acquirer's or the issuer's trouble, not the card's. */
const RETRYABLE = new Set(["processing_error"])

export const failureOfRefusal = (code: string | undefined, text: string | undefined) => {
  const lowered = text?.toLowerCase()
  const found = REFUSALS.find(([byCode, byText]) => byCode === code || byText.toLowerCase() === lowered)
  const ours = found?.[2] ?? "card_declined"
  return { code: ours, message: failureMessage(ours), retryable: RETRYABLE.has(ours), providerMessage: text }
}

/** What Adyen tells about the card, where its additional data says anything. */
export const cardOfAdditionalData = (data: Readonly<Record<string, unknown>> | undefined, brand?: string): CardDetails => {
  const text = (key: string) => typeof data?.[key] === "string" && data[key] !== "" ? data[key] as string : null
  return {
    brand: brand ?? text("paymentMethod"),
    last4: text("cardSummary"),
    country: text("cardIssuingCountry")?.toUpperCase() ?? null
  }
}

/**
 * What a `/payments` or `/payments/details` answer means for our payment. Adyen does not say
 * whether an authorisation is captured: it is when we asked for automatic capture (`capture`).
 */
export const outcomeOfResult = (
  result: PaymentResult,
  request: { readonly reference: string; readonly amount: number; readonly capture: boolean }
): AuthorizationOutcome => {
  // A redirect may come before Adyen assigns its reference; our own then stands in for it.
  const pspPaymentId = result.pspReference ?? request.reference
  const card = cardOfAdditionalData(result.additionalData)
  const refused = (code: string, providerMessage: string | undefined, retryable = false) =>
    AuthorizationOutcome.Refused({
      pspPaymentId: result.pspReference ?? null,
      code,
      message: failureMessage(code),
      retryable,
      card,
      providerMessage
    })
  switch (result.resultCode) {
    case "Authorised":
    case "Success":
      return AuthorizationOutcome.Authorized({
        pspPaymentId,
        captured: request.capture,
        amountCaptured: request.capture ? request.amount : 0,
        card,
        networkTransactionId: networkTxReferenceOf(result.additionalData)
      })
    case "Refused": {
      const failure = failureOfRefusal(result.refusalReasonCode, result.refusalReason)
      return refused(failure.code, failure.providerMessage, failure.retryable)
    }
    case "Error":
      return refused("processing_error", result.refusalReason, true)
    case "Cancelled":
      return refused("canceled", undefined)
    case "RedirectShopper":
    case "IdentifyShopper":
    case "ChallengeShopper":
    case "PresentToShopper": {
      const action = result.action
      // We ask for the redirect flow of 3DS (nativeThreeDS disabled): a GET redirect is what our
      // next_action can carry. A native 3DS2 action or a POST redirect needs Adyen's Web Components.
      if (action?.type === "redirect" && action.url !== undefined && (action.method ?? "GET").toUpperCase() === "GET") {
        return AuthorizationOutcome.ActionRequired({ pspPaymentId, redirectUrl: action.url, card })
      }
      return refused("authentication_unsupported", `Adyen asked for a '${action?.type ?? "unknown"}' action`)
    }
    default:
      // Pending, Received and any result not final: Adyen settles it by notification.
      return AuthorizationOutcome.Pending({ pspPaymentId, card })
  }
}
