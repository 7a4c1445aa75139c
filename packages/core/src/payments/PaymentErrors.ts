import { Data } from "effect"
import type { Refund } from "../refunds/Refund.js"
import type { Payment } from "./Payment.js"

export class PaymentNotFound extends Data.TaggedError("PaymentNotFound")<{ readonly id: string }> {}

/** The PSP refused the money movement (decline, failed capture). The payment inside shows the result. */
export class PaymentRefused extends Data.TaggedError("PaymentRefused")<{
  readonly payment: Payment
  readonly code: string
  readonly message: string
}> {}

/**
 * The PSP could not be reached (`timedOut: false`: nothing happened there) or did not answer in time.
 * `refund` is set when it was a refund that could not be sent.
 */
export class ProviderUnreachable extends Data.TaggedError("ProviderUnreachable")<{
  readonly payment: Payment
  readonly refund?: Refund
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
