import { type FailureAnswer, NotFound, ServiceFailure } from "../Failure.js"

/** Unknown, deleted, another organization's, or the other mode's card: all look the same. */
export class PaymentMethodNotFound extends NotFound("PaymentMethodNotFound", "payment method") {}

/** The card's number, expiry or security code is not a card's: nothing is stored. */
export class CardInvalid extends ServiceFailure("CardInvalid", {
  kind: "invalid",
  codes: ["invalid_number", "invalid_expiry_month", "invalid_expiry_year", "expired_card", "invalid_cvc"],
  description: "The card's number, expiry or security code is not valid; nothing was stored"
})<{ readonly code: string; readonly param: string; readonly message: string }> {
  get answer(): FailureAnswer {
    return { code: this.code, message: this.message, param: this.param }
  }
}

/** Raw card numbers through the API are off for this organization (the operator turns them on). */
export class RawCardDataDisabled extends ServiceFailure("RawCardDataDisabled", {
  kind: "unprocessable",
  codes: ["raw_card_data_disabled"],
  description: "Sending card numbers to the API is not enabled for this organization"
})<{}> {
  get answer(): FailureAnswer {
    return {
      message: "Sending raw card numbers to the API is not enabled for this organization. " +
        "Ask the service's operator to enable it (ORCHESTRATOR_VAULT_RAW_CARD_ORGANIZATIONS); see the guide 'Cards and the vault'."
    }
  }
}

/** A test-mode card named by a live payment, or the other way round. */
export class PaymentMethodModeMismatch extends ServiceFailure("PaymentMethodModeMismatch", {
  kind: "invalid",
  codes: ["payment_method_livemode_mismatch"],
  description: "The payment method was vaulted in the other mode (a test-mode card never pays live)"
})<{ readonly livemode: boolean }> {
  get answer(): FailureAnswer {
    return {
      message: this.livemode
        ? "A test-mode payment method cannot be used for a live payment."
        : "A live payment method cannot be used for a test-mode payment.",
      param: "payment_method.token"
    }
  }
}
