import { Context, DateTime, type Duration, Effect, Option } from "effect"
import type { Leased, LeaseRequest } from "../domain/LeasedWork.js"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Payment, PaymentListFilter } from "../domain/payments/Payment.js"
import type { Tenant } from "../domain/Tenant.js"
import type { RecordRepository } from "./RecordStore.js"

/** A payment found by a background job, with the tenant it belongs to. */
export interface PaymentRef {
  readonly tenant: Tenant
  readonly paymentId: string
}

/** The payments a worker looks after. */
export type PaymentWork =
  /**
   * `processing` with a last attempt never answered since `sentBefore` or earlier (`unansweredSince`:
   * its call gave up then, or, still pending, its `callTimeout` was over then).
   */
  | { readonly _tag: "Unanswered"; readonly sentBefore: DateTime.Utc; readonly callTimeout: Duration.Duration }
  /** Waiting on the customer (3DS) or on a capture since before `updatedBefore`. */
  | {
    readonly _tag: "Waiting"
    readonly status: "requires_action" | "requires_capture"
    readonly updatedBefore: DateTime.Utc
  }

/** Every write of a payment writes its attempts with it. */
export class PaymentsRepository extends Context.Tag("core/PaymentsRepository")<
  PaymentsRepository,
  RecordRepository<Payment> & {
    /** The payment of an attempt (our PSP reference), or else of the PSP's own id for it. */
    readonly findByReference: (
      tenant: Tenant,
      reference: { readonly attemptId: string | null; readonly pspPaymentId: string | null }
    ) => Effect.Effect<Option.Option<Payment>>
    /** For the unauthenticated 3DS return: whose payment is this? */
    readonly tenantOf: (id: string) => Effect.Effect<Option.Option<Tenant>>
    readonly list: (
      tenant: Tenant,
      filter: PaymentListFilter,
      page: PageRequest
    ) => Effect.Effect<Page<Payment>, InvalidCursor>
    /**
     * Leases payments that need `work`, to one worker at a time, fairly (see `FairShare`): each
     * provider connection is a lane, taken in turn; unanswered ones never looked at first, then the
     * longest overdue, and the others least recently updated first.
     */
    readonly claimDue: (work: PaymentWork, lease: LeaseRequest) => Effect.Effect<ReadonlyArray<Leased<PaymentRef>>>
    /**
     * The worker has finished with a claimed payment, which waits until `until` (its next try) before
     * it is due again. Only while `token` still holds it.
     */
    readonly holdUntil: (paymentId: string, token: string, until: DateTime.Utc) => Effect.Effect<void>
    /** The worker has finished with a claimed payment; it waits out its lease. Only while `token` still holds it. */
    readonly finishClaim: (paymentId: string, token: string) => Effect.Effect<void>
    /**
     * Keeps what the PSP (or the transport) said about an attempt, its first KiB: for operators
     * diagnosing a failure, never part of the payment the API shows. The latest text wins.
     */
    readonly recordProviderMessage: (tenant: Tenant, attemptId: string, message: string) => Effect.Effect<void>
    readonly providerMessageOf: (tenant: Tenant, attemptId: string) => Effect.Effect<Option.Option<string>>
  }
>() {}
