import type { Dispute } from "@orchestrator/core"
import { DateTime } from "effect"
import { money, when } from "../Format.js"
import { idLink } from "../Listing.js"
import { badge } from "../Table.js"

export const DISPUTE_HEADERS = ["Dispute", "Payment", "Amount", "Reason", "Status", "Deadline"]

/** The rows of a disputes table: each dispute links to its page, its payment to the payment's. */
export const disputeRows = (disputes: ReadonlyArray<Dispute>) =>
  disputes.map((dispute) => [
    idLink("disputes", dispute.id),
    idLink("payments", dispute.payment_id),
    money(dispute.amount, dispute.currency),
    dispute.reason.replaceAll("_", " "),
    badge(dispute.status),
    when(dispute.evidence_due_by)
  ])

// No deadline sorts after every deadline.
const deadline = (dispute: Dispute) => dispute.evidence_due_by === null ? Number.MAX_SAFE_INTEGER : DateTime.toEpochMillis(dispute.evidence_due_by)

/** Those waiting for an answer first, then the rest; within each, the nearest deadline first (none last). */
export const byUrgency = (disputes: ReadonlyArray<Dispute>): ReadonlyArray<Dispute> =>
  [...disputes].sort((a, b) => Number(b.status === "needs_response") - Number(a.status === "needs_response") || deadline(a) - deadline(b))
