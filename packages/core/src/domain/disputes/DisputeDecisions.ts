import { DateTime, Either } from "effect"
import { Dispute, type DisputeFunds, type DisputeStage, type DisputeStatus, OPEN_DISPUTE_STATUSES } from "./Dispute.js"
import type { DisputeFact } from "./DisputeFact.js"
import { type DisputeEventType, DisputeStateMachine } from "./DisputeStateMachine.js"

/** Pure decisions about disputes: what a PSP's fact does to one, and the money it moves. */

/** An inquiry takes no money; an open or lost chargeback has taken it; a won one gave it back. */
export const fundsOf = (status: DisputeStatus, stage: DisputeStage): DisputeFunds =>
  stage === "inquiry" || status === "warning_closed" ? "none" : status === "won" ? "reinstated" : "withdrawn"

/** The event of a change of funds, if it is one: money taken, or money withdrawn given back (whatever closed the dispute). */
export const fundsEvent = (before: DisputeFunds | null, after: DisputeFunds): DisputeEventType | null =>
  after === "withdrawn" && before !== "withdrawn"
    ? "dispute.funds_withdrawn"
    : after !== "withdrawn" && before === "withdrawn"
    ? "dispute.funds_reinstated"
    : null

/**
 * What a dispute holds back of its payment (`amount_disputed`): the amount while its funds are
 * withdrawn. A dispute in another currency than the payment's holds back the whole captured amount
 * (the service converts no currency), and never more than was captured.
 */
export const heldBack = (dispute: Pick<Dispute, "funds" | "amount" | "currency">, payment: { readonly currency: string; readonly amount_captured: number }) =>
  dispute.funds !== "withdrawn"
    ? 0
    : dispute.currency === payment.currency
    ? Math.min(dispute.amount, payment.amount_captured)
    : payment.amount_captured

/** The fields of a dispute a PSP's fact says, besides its status. */
export const factFields = (fact: DisputeFact) => ({
  amount: fact.amount,
  currency: fact.currency,
  reason: fact.reason,
  reason_code: fact.reasonCode,
  stage: fact.stage,
  funds: fundsOf(fact.status, fact.stage),
  evidence_due_by: fact.evidenceDueByMillis === null ? null : DateTime.unsafeMake(fact.evidenceDueByMillis),
  fee: fact.fee,
  provider_reported_at: DateTime.unsafeMake(fact.occurredAtMillis)
})

export type FactFields = ReturnType<typeof factFields>

/** What applying a fact to the dispute as stored (or to none) comes to. */
export type FactDecision =
  /** A new dispute, through these statuses in order (an outcome learnt first is opened, then closed). */
  | { readonly _tag: "Create"; readonly statuses: readonly [DisputeStatus, ...ReadonlyArray<DisputeStatus>]; readonly fields: FactFields }
  /** Older than what is known, or the same news again: nothing changes. */
  | { readonly _tag: "Ignore" }
  | { readonly _tag: "Move"; readonly to: DisputeStatus; readonly fields: FactFields }
  /** Newer news that moves no status (or may not: a final `accepted`); `updated` when a merchant would see a change. */
  | { readonly _tag: "Save"; readonly fields: FactFields; readonly updated: boolean }

/** How far along a status is: open, answered, closed. */
const RANK: Readonly<Record<DisputeStatus, number>> = {
  needs_response: 0,
  under_review: 1,
  won: 2,
  lost: 2,
  accepted: 2,
  expired: 2,
  warning_closed: 2
}

/** The one rule of out-of-order news: the fact the PSP dated latest says the status. */
export const decideFact = (current: Dispute | null, fact: DisputeFact): FactDecision => {
  const fields = factFields(fact)
  if (current === null) {
    return OPEN_DISPUTE_STATUSES.includes(fact.status)
      ? { _tag: "Create", statuses: [fact.status], fields }
      : { _tag: "Create", statuses: ["needs_response", fact.status], fields }
  }
  const known = current.provider_reported_at.epochMillis
  // News dated the same moment (PSPs date to the second) counts only when it takes the dispute further.
  if (fact.occurredAtMillis < known || (fact.occurredAtMillis === known && RANK[fact.status] <= RANK[current.status])) return { _tag: "Ignore" }
  if (fact.status !== current.status && Either.isRight(DisputeStateMachine.move(current.status, fact.status))) {
    return { _tag: "Move", to: fact.status, fields }
  }
  const kept = DisputeStateMachine.terminal.includes(current.status) ? { ...fields, funds: current.funds, stage: current.stage } : fields
  const updated = kept.stage !== current.stage || kept.amount !== current.amount ||
    kept.evidence_due_by?.epochMillis !== current.evidence_due_by?.epochMillis
  return { _tag: "Save", fields: kept, updated }
}
