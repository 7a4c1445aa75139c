import { Effect, Option } from "effect"
import { Dispute } from "../../domain/disputes/Dispute.js"
import { decideFact, fundsEvent, heldBack } from "../../domain/disputes/DisputeDecisions.js"
import type { DisputeFact } from "../../domain/disputes/DisputeFact.js"
import type { Payment } from "../../domain/payments/Payment.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import { DisputesRepository } from "../../ports/DisputesRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { PaymentsRepository } from "../../ports/PaymentsRepository.js"
import { Transactions } from "../../ports/Transactions.js"
import { EventLog } from "../events/EventLog.js"
import { PaymentRecords } from "../payments/PaymentRecords.js"
import { DisputeRecords } from "./DisputeRecords.js"

const EMPTY_SUBMISSION = { status: "not_submitted", submitted_at: null, failure: null } as const

/**
 * Writes what a dispute's change of funds does, in the caller's transaction: its event, and the
 * payment's `amount_disputed` (and `disputed`) moved by the difference.
 */
export const moveFunds = (tenant: Tenant, payment: Payment, before: Dispute | null, after: Dispute) =>
  Effect.gen(function*() {
    const type = fundsEvent(before?.funds ?? null, after.funds)
    if (type !== null) yield* (yield* EventLog).record(tenant, { type, object: after })
    const delta = heldBack(after, payment) - (before === null ? 0 : heldBack(before, payment))
    if (delta === 0 && payment.disputed) return
    const amountDisputed = Math.max(0, Math.min(payment.amount_captured, payment.amount_disputed + delta))
    yield* (yield* PaymentRecords).save(tenant, payment, { amount_disputed: amountDisputed, disputed: true })
  })

/**
 * A PSP's fact about a dispute on connection `provider`, applied in one transaction on the locked
 * payment (so two facts of one dispute never race to create it): created, moved, or only saved where
 * it is news, with every event. `unknown` when no payment of ours matches yet (the notification is
 * kept and tried again), `foreign` when the payment was made on another connection.
 */
export const applyDisputeFact = (tenant: Tenant, provider: string, fact: DisputeFact) =>
  Effect.gen(function*() {
    const found = yield* (yield* PaymentsRepository).findByReference(tenant, { attemptId: fact.reference, pspPaymentId: fact.pspPaymentId })
    if (Option.isNone(found)) return "unknown" as const
    const ours = found.value.attempts.some((attempt) =>
      attempt.provider === provider && (attempt.id === fact.reference || (fact.pspPaymentId !== null && attempt.provider_payment_id === fact.pspPaymentId))
    )
    if (!ours) return "foreign" as const
    const records = yield* DisputeRecords
    const disputes = yield* DisputesRepository
    const id = yield* (yield* IdGenerator).make("dp")
    return yield* (yield* Transactions).run(Effect.gen(function*() {
      const payment = yield* (yield* PaymentRecords).lock(tenant, found.value.id)
      const stored = yield* disputes.findByPspId(tenant, provider, fact.pspDisputeId)
      const current = Option.isSome(stored) ? yield* records.lock(tenant, stored.value.id) : null
      const decision = decideFact(current, fact)
      if (decision._tag === "Ignore") return "applied" as const
      let after: Dispute
      if (decision._tag === "Create") {
        const at = yield* now
        const base = new Dispute({
          object: "dispute",
          id,
          payment_id: payment.id,
          provider,
          provider_dispute_id: fact.pspDisputeId,
          ...decision.fields,
          status: decision.statuses[0],
          evidence: {},
          evidence_submission: EMPTY_SUBMISSION,
          evidence_due_soon: null,
          created_at: at,
          updated_at: at,
          livemode: tenant.livemode
        })
        const [first, ...rest] = decision.statuses
        after = yield* records.createThrough(tenant, [new Dispute({ ...base, status: first }), ...rest.map((status) => new Dispute({ ...base, status }))])
      } else if (decision._tag === "Move") {
        after = yield* records.move(tenant, current!, decision.to, decision.fields)
      } else {
        after = yield* records.save(tenant, current!, decision.fields)
        if (decision.updated) yield* (yield* EventLog).record(tenant, { type: "dispute.updated", object: after })
      }
      yield* moveFunds(tenant, payment, current, after)
      return "applied" as const
    }))
  })
