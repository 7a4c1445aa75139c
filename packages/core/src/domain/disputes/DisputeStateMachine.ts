import * as StateMachine from "../StateMachine.js"
import type { DisputeStatus } from "./Dispute.js"

/** The events of a dispute's moves, and of the money it moves (`DisputeFundsEventTypes`). */
export const DisputeMoveEventTypes = ["dispute.created", "dispute.updated", "dispute.evidence_submitted", "dispute.closed"] as const
export const DisputeFundsEventTypes = ["dispute.funds_withdrawn", "dispute.funds_reinstated"] as const
export const DisputeEventTypes = [...DisputeMoveEventTypes, ...DisputeFundsEventTypes] as const
export type DisputeMoveEventType = (typeof DisputeMoveEventTypes)[number]
export type DisputeEventType = (typeof DisputeEventTypes)[number]

const OPEN = ["needs_response", "under_review"] as const
/** Outcomes a later stage can still overturn (pre-arbitration after a win, a reversal after a loss, an inquiry escalated). */
const REOPENABLE = ["won", "lost", "warning_closed"] as const
const CLOSED = ["won", "lost", "accepted", "expired", "warning_closed"] as const

const closings = (from: DisputeStatus) => CLOSED.filter((to) => to !== from).map((to) => ({ from, to, event: "dispute.closed" as const }))

/**
 * A dispute opens waiting for evidence or already under review, is answered (`evidence_submitted`),
 * and closes with an outcome. The PSPs' news may arrive out of order, so a move may skip the states
 * between (a `lost` read while `needs_response`), and a later stage may reopen a won, lost or warning
 * outcome. `accepted` (the merchant gave up) and `expired` (no answer in time) are final.
 */
export const DisputeStateMachine = StateMachine.make<DisputeStatus, DisputeMoveEventType>({
  name: "dispute",
  states: ["needs_response", "under_review", "won", "lost", "accepted", "expired", "warning_closed"],
  moves: [
    { from: null, to: "needs_response", event: "dispute.created" },
    { from: null, to: "under_review", event: "dispute.created" },
    { from: "needs_response", to: "under_review", event: "dispute.evidence_submitted" },
    { from: "under_review", to: "needs_response", event: "dispute.updated" },
    ...OPEN.flatMap(closings),
    ...REOPENABLE.flatMap((from) => [
      ...OPEN.map((to) => ({ from, to, event: "dispute.updated" as const })),
      ...closings(from)
    ])
  ]
})
