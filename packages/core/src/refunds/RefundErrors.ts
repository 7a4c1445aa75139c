import { Data } from "effect"
import type { Refund } from "./Refund.js"

export class RefundNotFound extends Data.TaggedError("RefundNotFound")<{ readonly id: string }> {}

/** The PSP refused the refund; the failed refund is inside. */
export class RefundRefused extends Data.TaggedError("RefundRefused")<{ readonly refund: Refund }> {}
