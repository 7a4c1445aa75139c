import { DateTime, Effect, Layer, Option } from "effect"
import { awaitsOutcome, type Payment } from "../domain/payments/Payment.js"
import { PaymentPolicy } from "../domain/payments/PaymentPolicy.js"
import { unansweredSince } from "../domain/payments/ReconcileSchedule.js"
import type { Tenant } from "../domain/Tenant.js"
import { PaymentsRepository, type PaymentWork } from "../ports/PaymentsRepository.js"
import { memoryLeases } from "./MemoryLeases.js"
import { pageOf } from "./MemoryPaging.js"
import { memoryRecordWrites } from "./MemoryRecordWrites.js"
import { MemoryStore } from "./MemoryStore.js"

const isDue = (payment: Payment, work: PaymentWork) => {
  if (work._tag === "Waiting") {
    return payment.status === work.status && DateTime.lessThan(payment.updated_at, work.updatedBefore)
  }
  const last = payment.attempts.at(-1)
  return payment.status === "processing" && awaitsOutcome(last) &&
    !DateTime.greaterThan(unansweredSince(last!, work.callTimeout), work.sentBefore)
}

/** `PaymentsRepository` in memory: for the core's tests and `CoreMemory`, on the same paths production takes. */
export const MemoryPaymentsRepository = Layer.effect(
  PaymentsRepository,
  Effect.map(MemoryStore, (store) => {
    type Row = { readonly organizationId: string; readonly payment: Payment }
    const rows = () => store.table<Row>("payments")
    const leases = memoryLeases(store, "payments")
    const providerMessages = () => store.table<{ readonly organizationId: string; readonly message: string }>("payment_attempt_messages")
    const tenantOfRow = (row: Row): Tenant => ({ organizationId: row.organizationId, livemode: row.payment.livemode })
    const mine = (tenant: Tenant, row: Row | undefined) =>
      row !== undefined && row.organizationId === tenant.organizationId && row.payment.livemode === tenant.livemode
    const find = (tenant: Tenant, id: string) =>
      Effect.sync(() => {
        const row = rows().get(id)
        return mine(tenant, row) ? Option.some(row!.payment) : Option.none()
      })
    const save = (tenant: Tenant, payment: Payment) => Effect.sync(() => void rows().set(payment.id, { organizationId: tenant.organizationId, payment }))
    // As the primary key does in SQL: a second payment under an id already taken is refused.
    const insert = (tenant: Tenant, payment: Payment) =>
      Effect.suspend(() => rows().has(payment.id) ? Effect.dieMessage(`duplicate payment id ${payment.id}`) : save(tenant, payment))
    return {
      insert,
      update: save,
      ...memoryRecordWrites(store, { insert, update: save, find }),
      find,
      findForUpdate: find,
      findByReference: (tenant, { attemptId, pspPaymentId }) =>
        Effect.sync(() => {
          const payments = [...rows().values()].filter((row) => mine(tenant, row)).map((row) => row.payment)
          return Option.fromNullable(
            payments.find((payment) => attemptId !== null && payment.attempts.some((attempt) => attempt.id === attemptId)) ??
              payments.find((payment) => pspPaymentId !== null && payment.provider_payment_id === pspPaymentId)
          )
        }),
      tenantOf: (id) => Effect.sync(() => Option.map(Option.fromNullable(rows().get(id)), tenantOfRow)),
      list: (tenant, filter, page) =>
        pageOf(
          [...rows().values()].filter((row) => mine(tenant, row)).map((row) => row.payment),
          (payment) =>
            (filter.status === undefined || payment.status === filter.status) &&
            (filter.provider === undefined || payment.provider === filter.provider) &&
            (filter.currency === undefined || payment.currency === filter.currency) &&
            (filter.customer_id === undefined || payment.customer_id === filter.customer_id) &&
            (filter.test_clock === undefined || payment.metadata?.test_clock === filter.test_clock),
          page,
          filter.order_by
        ),
      recordProviderMessage: (tenant, attemptId, message) =>
        Effect.sync(() => void providerMessages().set(attemptId, { organizationId: tenant.organizationId, message })),
      providerMessageOf: (tenant, attemptId) =>
        Effect.sync(() => {
          const found = providerMessages().get(attemptId)
          return found !== undefined && found.organizationId === tenant.organizationId
            ? Option.some(found.message)
            : Option.none()
        }),
      holdUntil: (paymentId, token, until) => Effect.sync(() => leases.holdUntil(paymentId, token, until)),
      finishClaim: (paymentId, token) => Effect.sync(() => leases.finish(paymentId, token)),
      claimDue: (work, lease) =>
        Effect.sync(() => {
          const leaseOf = (id: string) => leases.until(id)?.epochMillis ?? Number.NEGATIVE_INFINITY
          const inOrder = [...rows().values()].sort((a, b) =>
            work._tag === "Unanswered"
              ? leaseOf(a.payment.id) - leaseOf(b.payment.id) || a.payment.updated_at.epochMillis - b.payment.updated_at.epochMillis
              : a.payment.updated_at.epochMillis - b.payment.updated_at.epochMillis
          )
          return leases.claimFair(
            work._tag === "Unanswered" ? "unanswered" : work.status,
            inOrder.map((row) => ({
              id: row.payment.id,
              lane: [row.organizationId, row.payment.livemode, row.payment.provider] as const,
              waiting: row.payment.status === (work._tag === "Unanswered" ? "processing" : work.status),
              due: isDue(row.payment, work),
              item: { tenant: tenantOfRow(row), paymentId: row.payment.id }
            })),
            lease,
            PaymentPolicy.defaultValue().recoveryShare
          )
        })
    }
  })
)
