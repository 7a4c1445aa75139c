import { Context, DateTime, Effect, Option } from "effect"
import type { Leased, LeaseRequest } from "../domain/LeasedWork.js"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Refund } from "../domain/refunds/Refund.js"
import type { Tenant } from "../domain/Tenant.js"
import type { RecordRepository } from "./RecordStore.js"

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
>() {}
