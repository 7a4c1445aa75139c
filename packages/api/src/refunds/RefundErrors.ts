import { echoed } from "@orchestrator/core/domain/EchoedText"
import type * as Domain from "@orchestrator/core/refunds/RefundErrors"
import { apiErrors, failWith } from "../ApiError.js"

export const RefundErrors = apiErrors({
  RefundNotFound: {
    status: 404,
    type: "invalid_request_error",
    codes: ["resource_missing"],
    description: "No refund with this id for this key"
  },
  RefundFailed: {
    status: 402,
    type: "payment_error",
    description: "The provider refused the refund; the failed refund is inside, `code` says why"
  }
})

export const refundFailures = {
  RefundNotFound: (error: Domain.RefundNotFound) =>
    failWith(RefundErrors.RefundNotFound, { message: `No such refund: '${echoed(error.id)}'`, param: "id" }),
  RefundRefused: (error: Domain.RefundRefused) =>
    failWith(RefundErrors.RefundFailed, {
      code: error.refund.failure?.code ?? "refund_failed",
      message: error.refund.failure?.message ?? "The refund failed.",
      refund: error.refund
    })
}
