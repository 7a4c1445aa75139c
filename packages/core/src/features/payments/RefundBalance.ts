import { Effect } from "effect"
import { AmountTooLarge, PaymentNotRefundable } from "../../domain/payments/PaymentErrors.js"
import type { Tenant } from "../../domain/Tenant.js"
import { PaymentRecords } from "./PaymentRecords.js"

/**
 * A payment's refundable balance, moved inside the refund's own transaction on the locked payment:
 * reserved when a refund is written, given back when it fails.
 */

/** Takes `requested` (or all that is left) off the refundable balance of a succeeded payment. */
export const reserveRefund = (tenant: Tenant, paymentId: string, requested: number | undefined) =>
  Effect.gen(function*() {
    const records = yield* PaymentRecords
    const payment = yield* records.lock(tenant, paymentId)
    if (payment.status !== "succeeded") return yield* new PaymentNotRefundable({ payment, reason: "not_succeeded" })
    // What disputes hold back is the customer's bank's to give back, not the merchant's.
    const refundable = payment.amount_captured - payment.amount_refunded - payment.amount_disputed
    if (refundable <= 0) {
      const reason = payment.amount_captured - payment.amount_refunded > 0 ? "disputed" : "fully_refunded"
      return yield* new PaymentNotRefundable({ payment, reason })
    }
    const amount = requested ?? refundable
    if (amount > refundable) return yield* new AmountTooLarge({ param: "amount", maximum: refundable })
    const reserved = yield* records.save(tenant, payment, { amount_refunded: payment.amount_refunded + amount })
    return { payment: reserved, amount }
  })

/** Gives back the amount of a refund that failed. */
export const releaseRefund = (tenant: Tenant, paymentId: string, amount: number) =>
  Effect.flatMap(
    PaymentRecords,
    (records) =>
      Effect.flatMap(records.lock(tenant, paymentId), (payment) => records.save(tenant, payment, { amount_refunded: payment.amount_refunded - amount }))
  )
