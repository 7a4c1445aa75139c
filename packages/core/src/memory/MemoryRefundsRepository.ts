import { DateTime, Effect, Layer, Option } from "effect"
import { PaymentPolicy } from "../domain/payments/PaymentPolicy.js"
import type { Refund } from "../domain/refunds/Refund.js"
import type { Tenant } from "../domain/Tenant.js"
import { RefundsRepository } from "../ports/RefundsRepository.js"
import { memoryLeases } from "./MemoryLeases.js"
import { pageOf } from "./MemoryPaging.js"
import { memoryRecordRepository } from "./MemoryRecordWrites.js"
import { MemoryStore } from "./MemoryStore.js"

/** `RefundsRepository` in memory: for the core's tests and `CoreMemory`, on the same paths production takes. */
export const MemoryRefundsRepository = Layer.effect(
  RefundsRepository,
  Effect.map(MemoryStore, (store) => {
    type Row = { readonly organizationId: string; readonly refund: Refund }
    const rows = () => store.table<Row>("refunds")
    const leases = memoryLeases(store, "refunds")
    const mine = (tenant: Tenant, row: Row | undefined) =>
      row !== undefined && row.organizationId === tenant.organizationId && row.refund.livemode === tenant.livemode
    const find = (tenant: Tenant, id: string) =>
      Effect.sync(() => {
        const row = rows().get(id)
        return mine(tenant, row) ? Option.some(row!.refund) : Option.none()
      })
    const save = (tenant: Tenant, refund: Refund) => Effect.sync(() => void rows().set(refund.id, { organizationId: tenant.organizationId, refund }))
    return {
      ...memoryRecordRepository(store, { save, find }),
      findByReference: (tenant, { pspRefundId, refundId }) =>
        Effect.sync(() => {
          const refunds = [...rows().values()].filter((row) => mine(tenant, row)).map((row) => row.refund)
          return Option.fromNullable(
            refunds.find((refund) => refund.id === refundId) ??
              refunds.find((refund) => pspRefundId !== null && refund.provider_refund_id === pspRefundId)
          )
        }),
      list: (tenant, filter, page) =>
        pageOf(
          [...rows().values()].filter((row) => mine(tenant, row)).map((row) => row.refund),
          (refund) => filter.paymentId === undefined || refund.payment_id === filter.paymentId,
          page
        ),
      finishClaim: (refundId, token) => Effect.sync(() => leases.finish(refundId, token)),
      claimPending: (createdBefore, lease) =>
        Effect.sync(() => {
          const leaseOf = (id: string) => leases.until(id)?.epochMillis ?? Number.NEGATIVE_INFINITY
          return leases.claimFair(
            "pending",
            [...rows().values()]
              .sort((a, b) => leaseOf(a.refund.id) - leaseOf(b.refund.id) || a.refund.created_at.epochMillis - b.refund.created_at.epochMillis)
              .map((row) => ({
                id: row.refund.id,
                lane: [row.organizationId, row.refund.livemode] as const,
                waiting: row.refund.status === "pending",
                due: DateTime.lessThan(row.refund.created_at, createdBefore),
                item: { tenant: { organizationId: row.organizationId, livemode: row.refund.livemode }, refundId: row.refund.id }
              })),
            lease,
            PaymentPolicy.defaultValue().recoveryShare
          )
        })
    }
  })
)
