import { type FailureAnswer, NotFound, ServiceFailure } from "../Failure.js"
import type { Refund } from "./Refund.js"

export class RefundNotFound extends NotFound("RefundNotFound", "refund") {}

/** The PSP refused the refund; the failed refund is inside. */
export class RefundRefused extends ServiceFailure("RefundRefused", {
  kind: "refused",
  description: "The provider refused the refund; the failed refund is inside, `code` says why"
})<{ readonly refund: Refund }> {
  get answer(): FailureAnswer {
    return {
      code: this.refund.failure?.code ?? "refund_failed",
      message: this.refund.failure?.message ?? "The refund failed.",
      concerns: this.refund
    }
  }
}
