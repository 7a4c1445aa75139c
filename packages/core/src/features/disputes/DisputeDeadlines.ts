import { DateTime, Effect } from "effect"
import type { Dispute } from "../../domain/disputes/Dispute.js"
import { now } from "../../domain/Timestamp.js"
import { type DisputeRef, DisputesRepository } from "../../ports/DisputesRepository.js"
import type { Job } from "../../ports/Jobs.js"
import { Transactions } from "../../ports/Transactions.js"
import { EventLog } from "../events/EventLog.js"
import { DisputeRecords } from "./DisputeRecords.js"

const HOUR = 60 * 60 * 1000

/** The warning a dispute is owed at `at`: `24h` within a day of its deadline, `72h` within three days. */
export const warningDue = (dispute: Dispute, at: DateTime.Utc): "72h" | "24h" | null => {
  if (dispute.status !== "needs_response" || dispute.evidence_due_by === null) return null
  const left = dispute.evidence_due_by.epochMillis - at.epochMillis
  const owed = left <= 24 * HOUR ? "24h" : left <= 72 * HOUR ? "72h" : null
  // Each warning once: a `24h` given is not followed by a `72h` (a deadline moved later starts again).
  return owed === null || owed === dispute.evidence_due_soon || (owed === "72h" && dispute.evidence_due_soon === "24h") ? null : owed
}

/**
 * Deadlines that are not missed: the worker's pass over disputes due within 72 hours, each warned
 * with `dispute.updated` (`evidence_due_soon`) at 72 h and at 24 h, once each, on the locked dispute
 * (any number of workers warn once).
 */
export const makeDisputeDeadlines = Effect.gen(function*() {
  const repository = yield* DisputesRepository
  const records = yield* DisputeRecords
  const transactions = yield* Transactions
  const events = yield* EventLog

  const warn = (ref: DisputeRef) =>
    transactions.run(Effect.gen(function*() {
      const dispute = yield* records.lock(ref.tenant, ref.disputeId)
      const owed = warningDue(dispute, yield* now)
      if (owed === null) return false
      const warned = yield* records.save(ref.tenant, dispute, { evidence_due_soon: owed })
      yield* events.record(ref.tenant, { type: "dispute.updated", object: warned })
      return true
    }))

  const warnDue = Effect.gen(function*() {
    const at = yield* now
    const due = yield* repository.dueBefore(DateTime.add(at, { hours: 72 }), 500)
    let warned = 0
    for (const ref of due) if (yield* warn(ref)) warned++
    return warned
  }).pipe(Effect.withSpan("Disputes.warnDue"))

  const job: Job = { name: "warn-dispute-deadlines", every: "1 minute", run: warnDue }
  return { warnDue, job }
})
