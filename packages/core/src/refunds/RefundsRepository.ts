import { Context, DateTime, Effect, Layer, Option } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import type { RecordRepository } from "../lifecycle/Lifecycle.js"
import { memoryLeases } from "../memory/MemoryLeases.js"
import { pageOf } from "../memory/MemoryPaging.js"
import { memoryRecordRepository } from "../memory/MemoryRecordWrites.js"
import { MemoryStore } from "../memory/MemoryStore.js"
import { PaymentPolicy } from "../payments/PaymentPolicy.js"
import type { Leased, LeaseRequest } from "../ports/LeasedWork.js"
import type { Refund } from "./Refund.js"

export interface RefundRef {
  readonly tenant: Tenant
  readonly refundId: string
}

/** What a list of refunds may be narrowed to. */
export interface RefundListFilter {
  readonly paymentId: string | undefined
}

export class RefundsRepository extends Context.Tag("core/RefundsRepository")<
  RefundsRepository,
  RecordRepository<Refund> & {
    /** A refund by its id (our PSP reference), or else by the PSP's own id for it. */
    readonly findByReference: (
      tenant: Tenant,
      reference: { readonly refundId: string | null; readonly pspRefundId: string | null }
    ) => Effect.Effect<Option.Option<Refund>>
    readonly list: (
      tenant: Tenant,
      filter: RefundListFilter,
      page: PageRequest
    ) => Effect.Effect<Page<Refund>, InvalidCursor>
    /**
     * Leases refunds still pending that were created before `createdBefore`, fairly (see
     * `FairShare`; each organization's mode is a lane): those never looked at first, oldest first,
     * then the longest overdue.
     */
    readonly claimPending: (createdBefore: DateTime.Utc, lease: LeaseRequest) => Effect.Effect<ReadonlyArray<Leased<RefundRef>>>
    /** The worker has finished with a claimed refund; it waits out its lease. Only while `token` still holds it. */
    readonly finishClaim: (refundId: string, token: string) => Effect.Effect<void>
  }
>() {
  static readonly layerMemory = Layer.effect(
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
}
