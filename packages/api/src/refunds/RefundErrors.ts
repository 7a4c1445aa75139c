import { echoed } from "@orchestrator/core/domain/EchoedText"
import type * as Domain from "@orchestrator/core/refunds/RefundErrors"
import { ApiError, failWith } from "../ApiError.js"

export class RefundNotFound extends ApiError<RefundNotFound>()("RefundNotFound", {
  status: 404,
  type: "invalid_request_error",
  codes: ["resource_missing"],
  description: "No refund with this id for this key"
}) {
  readonly _tag = "RefundNotFound" as const
}

export class RefundFailed extends ApiError<RefundFailed>()("RefundFailed", {
  status: 402,
  type: "payment_error",
  description: "The provider refused the refund; the failed refund is inside, `code` says why"
}) {
  readonly _tag = "RefundFailed" as const
}

export const refundFailures = {
  RefundNotFound: (error: Domain.RefundNotFound) =>
    failWith(RefundNotFound, { message: `No such refund: '${echoed(error.id)}'`, param: "id" }),
  RefundRefused: (error: Domain.RefundRefused) =>
    failWith(RefundFailed, {
      code: error.refund.failure?.code ?? "refund_failed",
      message: error.refund.failure?.message ?? "The refund failed.",
      refund: error.refund
    })
}
