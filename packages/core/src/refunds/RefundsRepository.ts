import { Context, DateTime, Effect, Layer, Option } from "effect"
import { MemoryStore } from "../memory/MemoryStore.js"
import { pageOf } from "../memory/MemoryPaging.js"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import type { Refund } from "./Refund.js"

export interface RefundRef {
  readonly tenant: Tenant
  readonly refundId: string
}

export class RefundsRepository extends Context.Tag("core/RefundsRepository")<RefundsRepository, {
  readonly insert: (tenant: Tenant, refund: Refund) => Effect.Effect<void>
  readonly update: (tenant: Tenant, refund: Refund) => Effect.Effect<void>
  readonly find: (tenant: Tenant, id: string) => Effect.Effect<Option.Option<Refund>>
  readonly findForUpdate: (tenant: Tenant, id: string) => Effect.Effect<Option.Option<Refund>>
  readonly list: (
    tenant: Tenant,
    filter: { readonly paymentId: string | undefined },
    page: PageRequest
  ) => Effect.Effect<Page<Refund>, InvalidCursor>
  /** Pending refunds created before `createdBefore`, leased to one worker until `leaseUntil`. */
  readonly claimPending: (options: {
    readonly createdBefore: DateTime.Utc
    readonly now: DateTime.Utc
    readonly leaseUntil: DateTime.Utc
    readonly limit: number
  }) => Effect.Effect<ReadonlyArray<RefundRef>>
}>() {
  static readonly layerMemory = Layer.effect(
    RefundsRepository,
    Effect.map(MemoryStore, (store) => {
      type Row = { readonly organizationId: string; readonly refund: Refund }
      const rows = () => store.table<Row>("refunds")
      const leases = () => store.table<DateTime.Utc>("refund_reconcile_leases")
      const mine = (tenant: Tenant, row: Row | undefined) =>
        row !== undefined && row.organizationId === tenant.organizationId && row.refund.livemode === tenant.livemode
      const find = (tenant: Tenant, id: string) =>
        Effect.sync(() => {
          const row = rows().get(id)
          return mine(tenant, row) ? Option.some(row!.refund) : Option.none()
        })
      const save = (tenant: Tenant, refund: Refund) =>
        Effect.sync(() => void rows().set(refund.id, { organizationId: tenant.organizationId, refund }))
      return {
        insert: save,
        update: save,
        find,
        findForUpdate: find,
        list: (tenant, filter, page) =>
          pageOf(
            [...rows().values()].filter((row) => mine(tenant, row)).map((row) => row.refund),
            (refund) => filter.paymentId === undefined || refund.payment_id === filter.paymentId,
            page
          ),
        claimPending: ({ createdBefore, leaseUntil, limit, now }) =>
          Effect.sync(() => {
            const claimed: Array<RefundRef> = []
            for (const row of rows().values()) {
              const lease = leases().get(row.refund.id)
              if (
                claimed.length < limit && row.refund.status === "pending" &&
                DateTime.lessThan(row.refund.created_at, createdBefore) &&
                (lease === undefined || DateTime.lessThan(lease, now))
              ) {
                leases().set(row.refund.id, leaseUntil)
                claimed.push({
                  tenant: { organizationId: row.organizationId, livemode: row.refund.livemode },
                  refundId: row.refund.id
                })
              }
            }
            return claimed
          })
      }
    })
  )
}
