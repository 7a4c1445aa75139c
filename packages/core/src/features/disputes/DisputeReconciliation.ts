import { DateTime, Duration, Effect } from "effect"
import type { DisputeFact } from "../../domain/disputes/DisputeFact.js"
import { now } from "../../domain/Timestamp.js"
import { type DisputeRef, DisputesRepository } from "../../ports/DisputesRepository.js"
import type { Job } from "../../ports/Jobs.js"
import { PaymentCalls } from "../payments/PaymentCalls.js"
import { Payments } from "../payments/Payments.js"
import { DisputeRecords } from "./DisputeRecords.js"

/**
 * How long a dispute under review may go without news from its PSP before the worker reads it there:
 * card schemes take weeks to decide, and a lost webhook should not cost more than a week of not knowing.
 */
export const DISPUTE_READ_AFTER = Duration.days(7)

/**
 * Reconciliation of disputes whose outcome is late: a dispute whose evidence was submitted and that
 * has heard nothing from its PSP for `DISPUTE_READ_AFTER` is read from the PSP (where its connector
 * can read disputes) and what it says is applied as a notification would be (`apply`). Each read is
 * noted, so a dispute is read at most once per `DISPUTE_READ_AFTER`, whatever the PSP answers.
 */
export const makeDisputeReconciliation = (
  apply: (ref: DisputeRef, provider: string, fact: DisputeFact) => Effect.Effect<"applied" | "unknown" | "foreign">
) =>
  Effect.gen(function*() {
    const repository = yield* DisputesRepository
    const records = yield* DisputeRecords
    const calls = yield* PaymentCalls
    const payments = yield* Payments

    /** Reads one dispute from its PSP and applies what it says; whether the PSP told anything. */
    const readOne = (ref: DisputeRef) =>
      Effect.gen(function*() {
        const at = yield* now
        const dispute = yield* records.load(ref.tenant, ref.disputeId)
        // Taken since it was listed (news arrived meanwhile): nothing to read.
        if (dispute.status !== "under_review") return false
        const payment = yield* payments.retrieve(ref.tenant, dispute.payment_id)
        const { result } = yield* calls.call(ref.tenant, dispute.provider, (connector) =>
          connector.disputes?.read === undefined
            ? Effect.succeed(undefined)
            : connector.disputes.read({ pspDisputeId: dispute.provider_dispute_id, pspPaymentId: payment.provider_payment_id, atMillis: at.epochMillis }))
        // Read or not (no read API, PSP out of reach), it waits its time again before the next try.
        yield* repository.markRead(ref, at)
        if (result._tag !== "Answered" || result.value === undefined) return false
        yield* apply(ref, dispute.provider, result.value)
        return true
      }).pipe(
        // One dispute that cannot be read (its connection gone) does not stop the others.
        Effect.catchAllCause((cause) =>
          Effect.as(Effect.logWarning("A dispute could not be read from its PSP").pipe(Effect.annotateLogs({ dispute: ref.disputeId, cause })), false)
        )
      )

    const reconcile = Effect.gen(function*() {
      const quietSince = DateTime.subtractDuration(yield* now, DISPUTE_READ_AFTER)
      const due = yield* repository.awaitingOutcome(quietSince, 100)
      let read = 0
      for (const ref of due) if (yield* readOne(ref)) read++
      return read
    }).pipe(Effect.withSpan("Disputes.reconcile"))

    const job: Job = { name: "reconcile-disputes", every: "10 minutes", run: reconcile }
    return { reconcile, job }
  })
