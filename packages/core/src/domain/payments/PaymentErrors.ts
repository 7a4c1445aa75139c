import { echoed } from "../EchoedText.js"
import { type FailureAnswer, NotFound, ServiceFailure } from "../Failure.js"
import type { Payment } from "./Payment.js"

export class PaymentNotFound extends NotFound("PaymentNotFound", "payment") {}

/**
 * The request names a customer (`customer_id`) that is not this organization's in this mode: nothing
 * is written or charged, and whether the id exists elsewhere is not said.
 */
export class PaymentCustomerNotFound extends ServiceFailure("PaymentCustomerNotFound", {
  kind: "not_found",
  codes: ["resource_missing"],
  description: "The body's `customer_id` names no customer of this key's organization and mode"
})<{ readonly id: string }> {
  get answer(): FailureAnswer {
    return { message: `No such customer: '${echoed(this.id)}'`, param: "customer_id" }
  }
}

/** The PSP refused the money movement (decline, failed capture). The payment inside shows the result. */
export class PaymentRefused extends ServiceFailure("PaymentRefused", {
  kind: "refused",
  description: "The provider refused the money movement; the failed payment is inside, `code` says why"
})<{
  readonly payment: Payment
  readonly code: string
  readonly message: string
}> {
  get answer(): FailureAnswer {
    return { code: this.code, message: this.message, concerns: this.payment }
  }
}

/** A capture or cancel could not reach the PSP: nothing happened there. The payment is unchanged. */
export class ProviderUnavailable extends ServiceFailure("ProviderUnavailable", {
  kind: "provider_unavailable",
  codes: ["provider_unavailable"],
  description: "The payment provider could not be reached; nothing changed"
})<{ readonly payment: Payment }> {
  get answer(): FailureAnswer {
    return {
      message: `The payment provider '${this.payment.provider}' could not be reached; nothing changed. Retry later.`,
      concerns: this.payment
    }
  }
}

/** A capture or cancel got no answer in time: retrying with the same Idempotency-Key retries the call. */
export class ProviderTimeout extends ServiceFailure("ProviderTimeout", {
  kind: "provider_timeout",
  codes: ["provider_timeout"],
  description: "The payment provider did not answer in time; retry with the same Idempotency-Key"
})<{ readonly payment: Payment }> {
  get answer(): FailureAnswer {
    return {
      message: `The payment provider '${this.payment.provider}' did not answer in time. Retry with the same Idempotency-Key.`,
      concerns: this.payment
    }
  }
}

/** The PSP could not be reached (`timedOut: false`: nothing happened there) or did not answer in time. */
export const providerUnreachable = (payment: Payment, timedOut: boolean): ProviderUnavailable | ProviderTimeout =>
  timedOut ? new ProviderTimeout({ payment }) : new ProviderUnavailable({ payment })

/** The operation does not apply to a payment in its current status. */
export class PaymentStateConflict extends ServiceFailure("PaymentStateConflict", {
  kind: "conflict",
  codes: ["payment_unexpected_state"],
  description: "The payment is not in a status that allows this"
})<{
  readonly payment: Payment
  readonly action: string
}> {
  get answer(): FailureAnswer {
    return {
      message: `This payment is ${this.payment.status}; it cannot be ${this.action === "cancel" ? "canceled" : "captured"}.`,
      concerns: this.payment
    }
  }
}

/** The PSP asked for 3D Secure but the request gave no `return_url`; the payment was canceled. */
export class ReturnUrlRequired extends ServiceFailure("ReturnUrlRequired", {
  kind: "unprocessable",
  codes: ["return_url_required"],
  description: "The provider requires 3D Secure and the request has no return_url; the payment was canceled"
})<{ readonly payment: Payment }> {
  get answer(): FailureAnswer {
    return {
      message: "The provider requires customer authentication (3D Secure), which needs a return_url. The payment was canceled.",
      param: "return_url",
      concerns: this.payment
    }
  }
}

export class AmountTooLarge extends ServiceFailure("AmountTooLarge", {
  kind: "unprocessable",
  codes: ["amount_too_large"],
  description: "The amount is more than the payment allows"
})<{
  readonly param: string
  readonly maximum: number
}> {
  get answer(): FailureAnswer {
    return { message: `The amount can be at most ${this.maximum}.`, param: this.param }
  }
}

/** Only a `succeeded` payment with something left to refund (not held back by a dispute) can be refunded. */
export class PaymentNotRefundable extends ServiceFailure("PaymentNotRefundable", {
  kind: "conflict",
  codes: ["charge_already_refunded", "payment_unexpected_state", "charge_disputed"],
  description: "Only a succeeded payment with something left to refund, not held back by a dispute, can be refunded"
})<{
  readonly payment: Payment
  readonly reason: "not_succeeded" | "fully_refunded" | "disputed"
}> {
  get answer(): FailureAnswer {
    switch (this.reason) {
      case "fully_refunded":
        return { code: "charge_already_refunded", message: "This payment has been refunded in full.", concerns: this.payment }
      case "disputed":
        return {
          code: "charge_disputed",
          message: "What is left of this payment is held back by a dispute (`amount_disputed`); answer the dispute instead.",
          concerns: this.payment
        }
      case "not_succeeded":
        return {
          code: "payment_unexpected_state",
          message: `This payment is ${this.payment.status}; only a succeeded payment can be refunded.`,
          concerns: this.payment
        }
    }
  }
}
