import { Effect, Option } from "effect"
import type { Completed, Running } from "../../domain/idempotency/KeyRun.js"
import { type Payment, PaymentAnswer } from "../../domain/payments/Payment.js"
import { captureReportOf, type Settlement, settlementOf } from "../../domain/payments/PaymentOutcomes.js"
import type { AuthorizationOutcome } from "../../domain/providers/ConnectorOutcomes.js"
import type { Tenant } from "../../domain/Tenant.js"
import { Transactions } from "../../ports/Transactions.js"
import { IdempotentRequests } from "../idempotency/IdempotentRequests.js"
import { PaymentCalls } from "./PaymentCalls.js"
import { type ConcludeOptions, isAnswerAsItIs } from "./PaymentConclusion.js"
import { PaymentRecords } from "./PaymentRecords.js"
import type { Sent } from "./PaymentSending.js"

/**
 * Applying what the PSP answered about an attempt, once: the answer to a send, a report (webhook or
 * sync) of an outcome, a capture or a release, and asking the PSP again for a payment that waits.
 */

/** Applies what `decide` makes of the payment, judged on the locked row. */
export const applyLocked = (tenant: Tenant, paymentId: string, decide: (payment: Payment) => Settlement) =>
  Effect.gen(function*() {
    const records = yield* PaymentRecords
    return yield* (yield* Transactions).run(Effect.gen(function*() {
      let payment = yield* records.lock(tenant, paymentId)
      const settlement = decide(payment)
      switch (settlement._tag) {
        case "Move":
          for (const step of settlement.steps) payment = yield* records.move(tenant, payment, step.to, step.changes)
          return payment
        case "Record":
          return yield* records.save(tenant, payment, settlement.changes)
        case "Nothing":
          return payment
      }
    }))
  })

/**
 * Records what a send came to, on the payment as the send last saw it: in one write when nobody has
 * touched it since (the request that sent it is almost always first to learn the answer), else under
 * the lock. When that write writes the request's answer (the payment as `conclude` will answer it),
 * the key of a request running under one is completed by the same write.
 */
export const recordSent = (tenant: Tenant, sent: Sent, keyed?: { readonly run: Running; readonly conclusion: ConcludeOptions }) =>
  Effect.gen(function*() {
    const run: Running | Completed | undefined = keyed?.run
    if (sent._tag === "Nothing") return { payment: sent.payment, run }
    const settlement = sent.settlement(sent.seen)
    if (settlement._tag !== "Nothing") {
      const records = yield* PaymentRecords
      const advance = yield* records.advance(
        tenant,
        sent.seen,
        settlement._tag === "Move" ? settlement.steps : [],
        settlement._tag === "Record" ? settlement.changes : {}
      )
      const keys = yield* IdempotentRequests
      const riding = keyed !== undefined && isAnswerAsItIs(advance.record, keyed.conclusion)
        ? yield* keys.completion(keyed.run, PaymentAnswer, advance.record)
        : undefined
      const written = yield* records.writeAdvance(tenant, sent.seen, advance, riding?.write)
      if (written) return { payment: advance.record, run: keyed === undefined ? run : keys.completed(keyed.run, riding, true) }
    }
    return { payment: yield* applyLocked(tenant, sent.seen.id, sent.settlement), run }
  })

/** The PSP's answer to attempt `attemptId`, if the payment still waits for it. */
export const settle = (tenant: Tenant, paymentId: string, attemptId: string, outcome: AuthorizationOutcome, latencyMs: number | null) =>
  applyLocked(tenant, paymentId, (payment) => settlementOf(payment, attemptId, outcome, latencyMs))

/**
 * Applies what the PSP reported about attempt `attemptId` (by webhook or sync), where it is news:
 * an outcome for an attempt still waiting, or a capture or release of an authorization. Anything
 * else, a late or repeated report included, changes nothing: no state ever moves backwards.
 */
export const applyReport = (tenant: Tenant, payment: Payment, attemptId: string, outcome: AuthorizationOutcome) =>
  Effect.gen(function*() {
    if (outcome._tag === "Refused") yield* (yield* PaymentCalls).keepProviderMessage(tenant, attemptId, outcome.providerMessage)
    if (payment.status !== "requires_capture") return yield* settle(tenant, payment.id, attemptId, outcome, null)
    if (Option.isNone(captureReportOf(payment, attemptId, outcome))) return payment
    // Judged again on the locked row: another process may have moved it since it was read.
    const records = yield* PaymentRecords
    return yield* (yield* Transactions).run(Effect.gen(function*() {
      const current = yield* records.lock(tenant, payment.id)
      const reported = captureReportOf(current, attemptId, outcome)
      return Option.isNone(reported) ? current : yield* records.move(tenant, current, reported.value.to, reported.value.changes)
    }))
  })

/** What the PSP says now about a payment waiting on the customer or a capture, recorded if it moved on. */
export const refresh = (tenant: Tenant, payment: Payment) =>
  Effect.gen(function*() {
    if (payment.status !== "requires_action" && payment.status !== "requires_capture") return payment
    const attempt = payment.attempts.at(-1)!
    const { result } = yield* (yield* PaymentCalls).call(
      tenant,
      attempt.provider,
      (connector) => connector.syncPayment({ reference: attempt.id, pspPaymentId: payment.provider_payment_id })
    )
    // Unreachable or unknown: nothing to record yet.
    if (result._tag !== "Answered") return payment
    return yield* applyReport(tenant, payment, attempt.id, result.value)
  })
