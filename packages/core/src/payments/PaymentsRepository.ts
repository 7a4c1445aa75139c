import { Context, DateTime, type Duration, Effect, Layer, Option } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import type { RecordRepository } from "../lifecycle/Lifecycle.js"
import { memoryLeases } from "../memory/MemoryLeases.js"
import { pageOf } from "../memory/MemoryPaging.js"
import { memoryRecordWrites } from "../memory/MemoryRecordWrites.js"
import { MemoryStore } from "../memory/MemoryStore.js"
import type { Leased, LeaseRequest } from "../ports/LeasedWork.js"
import { awaitsOutcome, type Payment, type PaymentListFilter } from "./Payment.js"
import { PaymentPolicy } from "./PaymentPolicy.js"
import { unansweredSince } from "./ReconcileSchedule.js"

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

const isDue = (payment: Payment, work: PaymentWork) => {
  if (work._tag === "Waiting") {
    return payment.status === work.status && DateTime.lessThan(payment.updated_at, work.updatedBefore)
  }
  const last = payment.attempts.at(-1)
  return payment.status === "processing" && awaitsOutcome(last) &&
    !DateTime.greaterThan(unansweredSince(last!, work.callTimeout), work.sentBefore)
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
>() {
  static readonly layerMemory = Layer.effect(
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
}
