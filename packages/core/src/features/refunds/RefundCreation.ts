import { Effect } from "effect"
import { noKey, type Running } from "../../domain/idempotency/KeyRun.js"
import { type CreateRefund, Refund } from "../../domain/refunds/Refund.js"
import { RefundRefused } from "../../domain/refunds/RefundErrors.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { Transactions } from "../../ports/Transactions.js"
import { IdempotentRequests } from "../idempotency/IdempotentRequests.js"
import { traced } from "../observability/Traced.js"
import { Payments } from "../payments/Payments.js"
import { RefundRecords } from "./RefundRecords.js"
import { sendRefund } from "./RefundSending.js"

/** A failed refund, an outage included, is final and saved: refused, with the refund inside. */
const conclude = (refund: Refund) => refund.status === "failed" ? Effect.fail(new RefundRefused({ refund })) : Effect.succeed(refund)

/** Finishes a refund whose request was cut short: one never answered is sent again under its own reference. */
export const resumeRefund = (tenant: Tenant, id: string) =>
  Effect.gen(function*() {
    const refund = yield* (yield* RefundRecords).load(tenant, id)
    const unsent = refund.status === "pending" && refund.provider_refund_id === null
    return yield* conclude(unsent ? yield* sendRefund(tenant, refund, { resend: true }) : refund)
  }).pipe(traced("Refunds.resume"))

/**
 * POST /v1/payments/{id}/refund: load (or the refund this key's earlier run created, finished) →
 * decide and persist in one transaction (the amount reserved on the locked payment, the refund written
 * `pending`, the key attached) → call the PSP and record its answer → conclude.
 */
export const createRefund = (tenant: Tenant, paymentId: string, input: CreateRefund, run: Running = noKey) =>
  Effect.gen(function*() {
    if (run.recovered !== null) return yield* resumeRefund(tenant, run.recovered).pipe(Effect.catchTag("RefundNotFound", Effect.die))
    const payments = yield* Payments
    const records = yield* RefundRecords
    const keys = yield* IdempotentRequests
    yield* payments.retrieve(tenant, paymentId)
    const id = yield* (yield* IdGenerator).make("ref")
    const pending = yield* (yield* Transactions).run(Effect.gen(function*() {
      const { amount, payment } = yield* payments.reserveRefund(tenant, paymentId, input.amount)
      const createdAt = yield* now
      const refund = yield* records.create(
        tenant,
        new Refund({
          object: "refund",
          id,
          payment_id: payment.id,
          amount,
          currency: payment.currency,
          status: "pending",
          reason: input.reason ?? null,
          provider_refund_id: null,
          failure: null,
          metadata: input.metadata ?? {},
          created_at: createdAt,
          updated_at: createdAt,
          livemode: tenant.livemode
        })
      )
      yield* keys.attach(run, id)
      return refund
    }))
    return yield* conclude(yield* sendRefund(tenant, pending, { resend: false }))
  }).pipe(traced("Refunds.create"))
