import { type ConnectorUnavailable, DisputeActionOutcome, type DisputeOperations, makeId } from "@orchestrator/core"
import { Clock, Effect, Option, Schema } from "effect"
import type { SandboxDisputeObject } from "./SandboxDisputeFacts.js"
import type { SandboxCharge, SandboxLedger } from "./SandboxLedger.js"
import { cardForToken } from "./SandboxTokens.js"
import { SandboxWebhook } from "./SandboxWebhooks.js"

const encode = Schema.encodeSync(Schema.parseJson(SandboxWebhook))

const DAY = 24 * 60 * 60 * 1000
/** The sandbox's dispute fee, in the charge's minor units (Stripe charges 15.00 in most currencies). */
const FEE = 1500
/** What the evidence says decides the outcome, as Stripe's test evidence does. */
export const WINNING_EVIDENCE = "winning_evidence"
export const LOSING_EVIDENCE = "losing_evidence"

/** A charge's one dispute: its id follows from the charge's, so every notification of it names the same dispute. */
const disputeIdOf = (charge: SandboxCharge) => `du_${charge.id.replace(/^ch_/, "")}`

/** Owes the connection a `dispute.updated` webhook saying the dispute of `charge` is now `status`, as of `occurred`. */
const notifyDispute = (ledger: SandboxLedger["Type"], charge: SandboxCharge, status: SandboxDisputeObject["status"], occurred: number) => {
  const id = makeId("sbev", occurred)
  const dispute: SandboxDisputeObject = {
    id: disputeIdOf(charge),
    charge: charge.id,
    charge_reference: charge.reference,
    amount: charge.amountCaptured,
    currency: charge.currency,
    status,
    reason: "fraudulent",
    // Seven days from the charge, like most card networks' first deadline.
    evidence_due_by: charge.createdAtMillis + 7 * DAY,
    fee: FEE,
    occurred
  }
  const payload = encode({ id, type: "dispute.updated", created: Math.floor(occurred / 1000), data: { dispute } })
  return ledger.notify({ id, connectionId: charge.connectionId, payload, createdAtMillis: occurred })
}

/** A charge made with `tok_createDispute` is disputed as soon as it is captured. */
export const disputeIfAsked = (ledger: SandboxLedger["Type"], charge: SandboxCharge) =>
  charge.status === "succeeded" && cardForToken(charge.token)?.behaviour._tag === "ApproveThenDispute"
    ? Effect.flatMap(Clock.currentTimeMillis, (now) => notifyDispute(ledger, charge, "needs_response", now))
    : Effect.void

/**
 * The sandbox's answers to disputes: evidence is taken (`under_review`), files with it, then decided at once by its
 * text (`winning_evidence` wins, `losing_evidence` loses, anything else stays under review);
 * accepting loses the dispute. A charge that is not this connection's, or was never disputed, is refused.
 */
export const sandboxDisputes = (
  ledger: SandboxLedger["Type"],
  connectionId: string,
  respond: <A>(work: Effect.Effect<A>) => Effect.Effect<A, ConnectorUnavailable>
): DisputeOperations => {
  const disputedCharge = (pspDisputeId: string, pspPaymentId: string | null) =>
    Effect.map(
      pspPaymentId === null ? Effect.succeed(Option.none<SandboxCharge>()) : ledger.findCharge(pspPaymentId),
      (found) => Option.getOrUndefined(Option.filter(found, (charge) => charge.connectionId === connectionId && disputeIdOf(charge) === pspDisputeId))
    )
  const refused = DisputeActionOutcome.Refused({ code: "dispute_not_found", message: "The provider knows no such dispute on this connection." })
  return {
    takesFiles: true,
    submitEvidence: ({ evidence: { files: _files, ...texts }, pspDisputeId, pspPaymentId }) =>
      respond(Effect.gen(function*() {
        const charge = yield* disputedCharge(pspDisputeId, pspPaymentId)
        if (charge === undefined) return refused
        const now = yield* Clock.currentTimeMillis
        yield* notifyDispute(ledger, charge, "under_review", now)
        const text = Object.values(texts).join("\n")
        if (text.includes(WINNING_EVIDENCE)) yield* notifyDispute(ledger, charge, "won", now + 1)
        else if (text.includes(LOSING_EVIDENCE)) yield* notifyDispute(ledger, charge, "lost", now + 1)
        return DisputeActionOutcome.Done()
      })),
    accept: ({ pspDisputeId, pspPaymentId }) =>
      respond(Effect.gen(function*() {
        const charge = yield* disputedCharge(pspDisputeId, pspPaymentId)
        if (charge === undefined) return refused
        yield* notifyDispute(ledger, charge, "lost", yield* Clock.currentTimeMillis)
        return DisputeActionOutcome.Done()
      }))
  }
}
