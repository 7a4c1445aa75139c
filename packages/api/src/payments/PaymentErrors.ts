import { echoed } from "@orchestrator/core/domain/EchoedText"
import type * as Domain from "@orchestrator/core/payments/PaymentErrors"
import { apiErrors, failWith, noSuch, notFound } from "../ApiError.js"
import { CustomerNotFound } from "../subscriptions/BillingErrors.js"

/** How each payment failure answers over HTTP. */
export const PaymentErrors = apiErrors({
  PaymentNotFound: notFound("payment"),
  PaymentFailed: {
    status: 402,
    type: "payment_error",
    description: "The provider refused the money movement; the failed payment is inside, `code` says why"
  },
  PaymentStateConflict: {
    status: 409,
    type: "invalid_request_error",
    codes: ["payment_unexpected_state"],
    description: "The payment is not in a status that allows this"
  },
  ReturnUrlRequired: {
    status: 422,
    type: "invalid_request_error",
    codes: ["return_url_required"],
    description: "The provider requires 3D Secure and the request has no return_url; the payment was canceled"
  },
  AmountTooLarge: {
    status: 422,
    type: "invalid_request_error",
    codes: ["amount_too_large"],
    description: "The amount is more than the payment allows"
  },
  PaymentNotRefundable: {
    status: 409,
    type: "invalid_request_error",
    codes: ["charge_already_refunded", "payment_unexpected_state"],
    description: "Only a succeeded payment with something left to refund can be refunded"
  },
  ProviderUnavailable: {
    status: 502,
    type: "provider_error",
    codes: ["provider_unavailable"],
    description: "The payment provider could not be reached; nothing changed"
  },
  ProviderTimeout: {
    status: 504,
    type: "provider_error",
    codes: ["provider_timeout"],
    description: "The payment provider did not answer in time; retry with the same Idempotency-Key"
  }
})

/** Each class by its name, for endpoint declarations and `failWith`. */
export const {
  PaymentNotFound,
  PaymentFailed,
  PaymentStateConflict,
  ReturnUrlRequired,
  AmountTooLarge,
  PaymentNotRefundable,
  ProviderUnavailable,
  ProviderTimeout
} = PaymentErrors

/** Each domain failure of a payment, as its API error. */
export const paymentFailures = {
  PaymentNotFound: noSuch(PaymentNotFound, "payment"),
  PaymentCustomerNotFound: (error: Domain.PaymentCustomerNotFound) =>
    failWith(CustomerNotFound, { message: `No such customer: '${echoed(error.id)}'`, param: "customer_id" }),
  PaymentRefused: (error: Domain.PaymentRefused) => failWith(PaymentFailed, { code: error.code, message: error.message, payment: error.payment }),
  PaymentStateConflict: (error: Domain.PaymentStateConflict) =>
    failWith(PaymentStateConflict, {
      message: `This payment is ${error.payment.status}; it cannot be ${error.action === "cancel" ? "canceled" : "captured"}.`,
      payment: error.payment
    }),
  ReturnUrlRequired: (error: Domain.ReturnUrlRequired) =>
    failWith(ReturnUrlRequired, {
      message: "The provider requires customer authentication (3D Secure), which needs a return_url. The payment was canceled.",
      param: "return_url",
      payment: error.payment
    }),
  AmountTooLarge: (error: Domain.AmountTooLarge) => failWith(AmountTooLarge, { message: `The amount can be at most ${error.maximum}.`, param: error.param }),
  PaymentNotRefundable: (error: Domain.PaymentNotRefundable) =>
    failWith(
      PaymentNotRefundable,
      error.reason === "fully_refunded"
        ? { code: "charge_already_refunded", message: "This payment has been refunded in full.", payment: error.payment }
        : {
          code: "payment_unexpected_state",
          message: `This payment is ${error.payment.status}; only a succeeded payment can be refunded.`,
          payment: error.payment
        }
    ),
  ProviderUnreachable: (error: Domain.ProviderUnreachable) =>
    error.timedOut
      ? failWith(ProviderTimeout, {
        message: `The payment provider '${error.payment.provider}' did not answer in time. Retry with the same Idempotency-Key.`,
        payment: error.payment
      })
      : failWith(ProviderUnavailable, {
        message: `The payment provider '${error.payment.provider}' could not be reached; nothing changed. Retry later.`,
        payment: error.payment
      })
}
