import { Context, DateTime, Effect, Layer, Option } from "effect"
import { MemoryStore } from "../memory/MemoryStore.js"
import { pageOf } from "../memory/MemoryPaging.js"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import type { Payment, PaymentListFilter, PaymentStatus } from "./Payment.js"

/** A payment found by a background job, with the tenant it belongs to. */
export interface PaymentRef {
  readonly tenant: Tenant
  readonly paymentId: string
}

export class PaymentsRepository extends Context.Tag("core/PaymentsRepository")<PaymentsRepository, {
  readonly insert: (tenant: Tenant, payment: Payment) => Effect.Effect<void>
  /** Saves the payment and its attempts. */
  readonly update: (tenant: Tenant, payment: Payment) => Effect.Effect<void>
  readonly find: (tenant: Tenant, id: string) => Effect.Effect<Option.Option<Payment>>
  /** Like `find`, and holds the payment against concurrent writers until the transaction ends. */
  readonly findForUpdate: (tenant: Tenant, id: string) => Effect.Effect<Option.Option<Payment>>
  /** For the unauthenticated 3DS return: whose payment is this? */
  readonly tenantOf: (id: string) => Effect.Effect<Option.Option<Tenant>>
  readonly list: (
    tenant: Tenant,
    filter: PaymentListFilter,
    page: PageRequest
  ) => Effect.Effect<Page<Payment>, InvalidCursor>
  /**
   * Payments whose last attempt was sent before `sentBefore` and never answered. Each is leased
   * until `leaseUntil`, so several workers never reconcile the same one at once.
   */
  readonly claimUnanswered: (options: {
    readonly sentBefore: DateTime.Utc
    readonly now: DateTime.Utc
    readonly leaseUntil: DateTime.Utc
    readonly limit: number
  }) => Effect.Effect<ReadonlyArray<PaymentRef>>
  /**
   * Payments sitting in `status` since before `updatedBefore` (a 3DS challenge, an uncaptured
   * authorization), leased until `leaseUntil` so each is followed up by one worker at a time.
   */
  readonly claimStale: (options: {
    readonly status: PaymentStatus
    readonly updatedBefore: DateTime.Utc
    readonly now: DateTime.Utc
    readonly leaseUntil: DateTime.Utc
    readonly limit: number
  }) => Effect.Effect<ReadonlyArray<PaymentRef>>
}>() {
  static readonly layerMemory = Layer.effect(
    PaymentsRepository,
    Effect.map(MemoryStore, (store) => {
      type Row = { readonly organizationId: string; readonly payment: Payment }
      const rows = () => store.table<Row>("payments")
      const leases = () => store.table<DateTime.Utc>("payment_reconcile_leases")
      const tenantOfRow = (row: Row): Tenant => ({ organizationId: row.organizationId, livemode: row.payment.livemode })
      const mine = (tenant: Tenant, row: Row | undefined) =>
        row !== undefined && row.organizationId === tenant.organizationId && row.payment.livemode === tenant.livemode
      const find = (tenant: Tenant, id: string) =>
        Effect.sync(() => {
          const row = rows().get(id)
          return mine(tenant, row) ? Option.some(row!.payment) : Option.none()
        })
      const save = (tenant: Tenant, payment: Payment) =>
        Effect.sync(() => void rows().set(payment.id, { organizationId: tenant.organizationId, payment }))
      return {
        insert: save,
        update: save,
        find,
        findForUpdate: find,
        tenantOf: (id) => Effect.sync(() => Option.map(Option.fromNullable(rows().get(id)), tenantOfRow)),
        list: (tenant, filter, page) =>
          pageOf(
            [...rows().values()].filter((row) => mine(tenant, row)).map((row) => row.payment),
            (payment) =>
              (filter.status === undefined || payment.status === filter.status) &&
              (filter.provider === undefined || payment.provider === filter.provider) &&
              (filter.currency === undefined || payment.currency === filter.currency) &&
              (filter.customer_id === undefined || payment.customer_id === filter.customer_id),
            page
          ),
        claimUnanswered: ({ leaseUntil, limit, now, sentBefore }) =>
          Effect.sync(() => {
            const claimed: Array<PaymentRef> = []
            for (const row of rows().values()) {
              const last = row.payment.attempts.at(-1)
              const lease = leases().get(row.payment.id)
              if (
                claimed.length < limit && row.payment.status === "processing" && last?.status === "pending" &&
                DateTime.lessThan(last.created_at, sentBefore) && (lease === undefined || DateTime.lessThan(lease, now))
              ) {
                leases().set(row.payment.id, leaseUntil)
                claimed.push({ tenant: tenantOfRow(row), paymentId: row.payment.id })
              }
            }
            return claimed
          }),
        claimStale: ({ leaseUntil, limit, now, status, updatedBefore }) =>
          Effect.sync(() => {
            const claimed: Array<PaymentRef> = []
            for (const row of rows().values()) {
              const lease = leases().get(row.payment.id)
              if (
                claimed.length < limit && row.payment.status === status &&
                DateTime.lessThan(row.payment.updated_at, updatedBefore) &&
                (lease === undefined || DateTime.lessThan(lease, now))
              ) {
                leases().set(row.payment.id, leaseUntil)
                claimed.push({ tenant: tenantOfRow(row), paymentId: row.payment.id })
              }
            }
            return claimed
          })
      }
    })
  )
}
