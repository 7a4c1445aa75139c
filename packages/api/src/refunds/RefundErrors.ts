import type * as Domain from "@orchestrator/core"
import { apiErrors, failWith, noSuch, notFound } from "../ApiError.js"

export const RefundErrors = apiErrors({
  RefundNotFound: notFound("refund"),
  RefundFailed: {
    status: 402,
    type: "payment_error",
    description: "The provider refused the refund; the failed refund is inside, `code` says why"
  }
})

/** Each class by its name, for endpoint declarations and `failWith`. */
export const { RefundNotFound, RefundFailed } = RefundErrors

export const refundFailures = {
  RefundNotFound: noSuch(RefundNotFound, "refund"),
  RefundRefused: (error: Domain.RefundRefused) =>
    failWith(RefundFailed, {
      code: error.refund.failure?.code ?? "refund_failed",
      message: error.refund.failure?.message ?? "The refund failed.",
      refund: error.refund
    })
}
