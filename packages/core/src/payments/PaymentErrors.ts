import { Data } from "effect"
import type { Payment } from "./Payment.js"

export class PaymentNotFound extends Data.TaggedError("PaymentNotFound")<{ readonly id: string }> {}

/**
 * The request names a customer (`customer_id`) that is not this organization's in this mode: nothing
 * is written or charged, and whether the id exists elsewhere is not said.
 */
export class PaymentCustomerNotFound extends Data.TaggedError("PaymentCustomerNotFound")<{ readonly id: string }> {}

/** The PSP refused the money movement (decline, failed capture). The payment inside shows the result. */
export class PaymentRefused extends Data.TaggedError("PaymentRefused")<{
  readonly payment: Payment
  readonly code: string
  readonly message: string
}> {}

/**
 * A capture or cancel could not reach the PSP (`timedOut: false`: nothing happened there) or got no
 * answer in time. The payment is unchanged; retrying with the same Idempotency-Key retries the call.
 */
export class ProviderUnreachable extends Data.TaggedError("ProviderUnreachable")<{
  readonly payment: Payment
  readonly timedOut: boolean
}> {}

/** The operation does not apply to a payment in its current status. */
export class PaymentStateConflict extends Data.TaggedError("PaymentStateConflict")<{
  readonly payment: Payment
  readonly action: string
}> {}

/** The PSP asked for 3D Secure but the request gave no `return_url`; the payment was canceled. */
export class ReturnUrlRequired extends Data.TaggedError("ReturnUrlRequired")<{ readonly payment: Payment }> {}

export class AmountTooLarge extends Data.TaggedError("AmountTooLarge")<{
  readonly param: string
  readonly maximum: number
}> {}

/** Only a `succeeded` payment with something left to refund can be refunded. */
export class PaymentNotRefundable extends Data.TaggedError("PaymentNotRefundable")<{
  readonly payment: Payment
  readonly reason: "not_succeeded" | "fully_refunded"
}> {}
