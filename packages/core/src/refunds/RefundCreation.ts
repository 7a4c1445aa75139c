import { Effect, Option } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import { now } from "../domain/Timestamp.js"
import { IdempotencyScope } from "../idempotency/IdempotencyScope.js"
import { Payments } from "../payments/Payments.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import { Transactions } from "../ports/Transactions.js"
import { type CreateRefund, Refund } from "./Refund.js"
import { RefundRefused } from "./RefundErrors.js"
import { RefundRecords } from "./RefundRecords.js"
import type { RefundSending } from "./RefundSending.js"

/**
 * A new refund: the amount reserved on the payment and the refund written in one transaction, then
 * sent; under an Idempotency-Key whose earlier run was cut short, that run's refund is finished.
 */
export const makeRefundCreation = (sending: RefundSending) =>
  Effect.gen(function*() {
    const records = yield* RefundRecords
    const payments = yield* Payments
    const transactions = yield* Transactions
    const ids = yield* IdGenerator
    const { send } = sending

    /** A failed refund, an outage included, is final and saved: 402 with the refund inside. */
    const conclude = (refund: Refund) => refund.status === "failed" ? Effect.fail(new RefundRefused({ refund })) : Effect.succeed(refund)

    const resume = Effect.fn("Refunds.resume")(function*(tenant: Tenant, id: string) {
      const refund = yield* records.load(tenant, id)
      const unsent = refund.status === "pending" && refund.provider_refund_id === null
      return yield* conclude(unsent ? yield* send(tenant, refund, { resend: true }) : refund)
    })

    const create = Effect.fn("Refunds.create")(function*(tenant: Tenant, paymentId: string, input: CreateRefund) {
      const scope = yield* IdempotencyScope
      if (Option.isSome(scope.recovered)) {
        return yield* resume(tenant, scope.recovered.value).pipe(Effect.catchTag("RefundNotFound", Effect.die))
      }
      yield* payments.retrieve(tenant, paymentId)
      const id = yield* ids.make("ref")
      const pending = yield* transactions.run(Effect.gen(function*() {
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
        yield* scope.attach(id)
        return refund
      }))
      return yield* conclude(yield* send(tenant, pending, { resend: false }))
    })

    return { create, resume }
  })
