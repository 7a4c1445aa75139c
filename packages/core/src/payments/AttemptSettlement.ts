import { Effect, Option } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import { IdempotencyScope } from "../idempotency/IdempotencyScope.js"
import { Transactions } from "../ports/Transactions.js"
import type { AuthorizationOutcome } from "../providers/PaymentConnector.js"
import type { Payment } from "./Payment.js"
import type { PaymentCalls } from "./PaymentCalls.js"
import { answeredAsIs } from "./PaymentCancellation.js"
import { captureReportOf, type Settlement, settlementOf } from "./PaymentOutcomes.js"
import { PaymentRecords } from "./PaymentRecords.js"

/**
 * Applying what the PSP answered about an attempt, once: the answer to a send, a report (webhook or
 * sync) of an outcome, a capture or a release, and asking the PSP again for a payment that waits.
 */
export const makeAttemptSettlement = (calls: PaymentCalls) =>
  Effect.gen(function*() {
    const records = yield* PaymentRecords
    const transactions = yield* Transactions
    const { call, keepProviderMessage } = calls

    /** Applies what `decide` makes of the payment, judged on the locked row. */
    const applyLocked = (tenant: Tenant, paymentId: string, decide: (payment: Payment) => Settlement) =>
      transactions.run(Effect.gen(function*() {
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

    const settle = (tenant: Tenant, paymentId: string, attemptId: string, outcome: AuthorizationOutcome, latencyMs: number | null) =>
      applyLocked(tenant, paymentId, (payment) => settlementOf(payment, attemptId, outcome, latencyMs))

    /**
     * `applyLocked` for the payment as this process last wrote it: in one write when nobody has touched
     * it since (the request that sent it is almost always first to learn the answer), else under the lock.
     * The write ends the send, so the payment it writes is the request's answer where `conclude` answers
     * it as it is: the request's Idempotency-Key is completed by the same write, where its answer rides.
     */
    const applySeen = (tenant: Tenant, seen: Payment, decide: (payment: Payment) => Settlement) =>
      Effect.gen(function*() {
        const settlement = decide(seen)
        if (settlement._tag !== "Nothing") {
          const scope = yield* IdempotencyScope
          const written = yield* scope.completeWith<Payment>((completion) =>
            records.advanceIfUnchanged(
              tenant,
              seen,
              settlement._tag === "Move" ? settlement.steps : [],
              settlement._tag === "Record" ? settlement.changes : {},
              (payment) => answeredAsIs(payment) ? completion(payment) : Effect.succeedNone
            )
          )
          if (Option.isSome(written)) return written.value
        }
        return yield* applyLocked(tenant, seen.id, decide)
      })

    const settleSeen = (tenant: Tenant, seen: Payment, attemptId: string, outcome: AuthorizationOutcome, latencyMs: number) =>
      applySeen(tenant, seen, (payment) => settlementOf(payment, attemptId, outcome, latencyMs))

    const applyReport = (tenant: Tenant, payment: Payment, attemptId: string, outcome: AuthorizationOutcome) =>
      Effect.gen(function*() {
        if (outcome._tag === "Refused") yield* keepProviderMessage(tenant, attemptId, outcome.providerMessage)
        if (payment.status !== "requires_capture") return yield* settle(tenant, payment.id, attemptId, outcome, null)
        if (Option.isNone(captureReportOf(payment, attemptId, outcome))) return payment
        // Judged again on the locked row: another process may have moved it since it was read.
        return yield* transactions.run(Effect.gen(function*() {
          const current = yield* records.lock(tenant, payment.id)
          const reported = captureReportOf(current, attemptId, outcome)
          return Option.isNone(reported)
            ? current
            : yield* records.move(tenant, current, reported.value.to, reported.value.changes)
        }))
      })

    const refresh = (tenant: Tenant, payment: Payment) =>
      Effect.gen(function*() {
        if (payment.status !== "requires_action" && payment.status !== "requires_capture") return payment
        const attempt = payment.attempts.at(-1)!
        const { result } = yield* call(
          tenant,
          attempt.provider,
          (connector) => connector.syncPayment({ reference: attempt.id, pspPaymentId: payment.provider_payment_id })
        )
        // Unreachable or unknown: nothing to record yet.
        if (result._tag !== "Answered") return payment
        return yield* applyReport(tenant, payment, attempt.id, result.value)
      })

    return { settle, applySeen, settleSeen, applyReport, refresh }
  })

export type AttemptSettlement = Effect.Effect.Success<ReturnType<typeof makeAttemptSettlement>>
