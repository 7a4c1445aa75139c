import * as StateMachine from "../StateMachine.js"
import type { RefundStatus } from "./Refund.js"

export const RefundEventTypes = ["refund.pending", "refund.succeeded", "refund.failed"] as const
export type RefundEventType = (typeof RefundEventTypes)[number]

/** A refund is written `pending` before the PSP is asked, then settles once. */
export const RefundStateMachine = StateMachine.make<RefundStatus, RefundEventType>({
  name: "refund",
  states: ["pending", "succeeded", "failed"],
  moves: [
    { from: null, to: "pending", event: "refund.pending" },
    { from: "pending", to: "succeeded", event: "refund.succeeded" },
    { from: "pending", to: "failed", event: "refund.failed" }
  ]
})
