import { Data } from "effect"
import type { Payment } from "../payments/Payment.js"
import type { Refund } from "./Refund.js"

export class RefundNotFound extends Data.TaggedError("RefundNotFound")<{ readonly id: string }> {}

/** Only a `succeeded` payment with something left to refund can be refunded. */
export class PaymentNotRefundable extends Data.TaggedError("PaymentNotRefundable")<{
  readonly payment: Payment
  readonly reason: "not_succeeded" | "fully_refunded"
}> {}

/** The PSP refused the refund; the failed refund is inside. */
export class RefundRefused extends Data.TaggedError("RefundRefused")<{ readonly refund: Refund }> {}
