import { Context, DateTime, Effect, Layer } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import type { RecordRepository } from "../lifecycle/Lifecycle.js"
import { memoryDocuments } from "../memory/MemoryDocuments.js"
import { memoryLeases } from "../memory/MemoryLeases.js"
import { memoryRecordRepository } from "../memory/MemoryRecordWrites.js"
import { MemoryStore } from "../memory/MemoryStore.js"
import type { FairShare, Leased, LeaseRequest } from "../ports/LeasedWork.js"
import type { SubscriptionListFilter, SubscriptionRecord } from "./Subscription.js"
import type { TestClock } from "./TestClock.js"

/** A subscription whose schedule has something due, and the time it is due. */
/** How billing shares its workers (see `FairShare`): two subscriptions of an organization's mode at a time. */
export const BILLING_SHARE: FairShare = { perTenant: 2, perLane: 2 }

export interface DueSubscription {
  readonly tenant: Tenant
  readonly subscriptionId: string
  readonly dueAt: DateTime.Utc
}

export class SubscriptionsRepository extends Context.Tag("core/SubscriptionsRepository")<
  SubscriptionsRepository,
  RecordRepository<SubscriptionRecord> & {
    readonly list: (
      tenant: Tenant,
      filter: SubscriptionListFilter,
      page: PageRequest
    ) => Effect.Effect<Page<SubscriptionRecord>, InvalidCursor>
    /**
     * Leases the subscriptions due first, fairly (see `FairShare`; each organization's mode is a
     * lane): on the real clock, due by `lease.now`; then, with what is left of the limit, those on a
     * test clock, due by that clock's `frozen_time`.
     */
    readonly claimDue: (lease: LeaseRequest) => Effect.Effect<ReadonlyArray<Leased<DueSubscription>>>
    /** Leases the subscription of test clock `clockId` due first, by `until`. */
    readonly claimDueOnClock: (
      tenant: Tenant,
      clockId: string,
      until: DateTime.Utc,
      lease: LeaseRequest
    ) => Effect.Effect<ReadonlyArray<Leased<DueSubscription>>>
    /** Whether any subscription of test clock `clockId` is due by `until`, whoever holds it. */
    readonly dueOnClock: (tenant: Tenant, clockId: string, until: DateTime.Utc) => Effect.Effect<boolean>
    /** Gives a lease back once its work is done, so the next due step can be claimed at once. */
    readonly release: (subscriptionId: string, token: string) => Effect.Effect<void>
  }
>() {
  static readonly layerMemory = Layer.effect(
    SubscriptionsRepository,
    Effect.map(MemoryStore, (store) => {
      const documents = memoryDocuments<SubscriptionRecord>(store, "subscriptions")
      const leases = memoryLeases(store, "subscriptions")
      const clockOf = (tenant: Tenant, id: string) => store.table<{ readonly organizationId: string; readonly value: TestClock }>("test_clocks").get(id)?.value
      // An advance holds its clock (see `TestClocksRepository`): the worker leaves its subscriptions to it.
      const advancing = (clockId: string, time: DateTime.Utc) => {
        const held = store.table<{ readonly until: DateTime.Utc }>("test_clock_advances").get(clockId)
        return held !== undefined && !DateTime.lessThan(held.until, time)
      }
      const claim = (
        lease: LeaseRequest,
        dueBy: (row: { readonly tenant: Tenant; readonly value: SubscriptionRecord }) => DateTime.Utc | undefined
      ) =>
        Effect.sync(() =>
          leases.claim(
            documents.everyone()
              .filter((row) => {
                const by = dueBy(row)
                return row.value.next_run_at !== null && by !== undefined && !DateTime.greaterThan(row.value.next_run_at, by)
              })
              .sort((a, b) => a.value.next_run_at!.epochMillis - b.value.next_run_at!.epochMillis)
              .map((row) => ({
                id: row.value.id,
                item: { tenant: row.tenant, subscriptionId: row.value.id, dueAt: row.value.next_run_at! }
              })),
            lease
          )
        )
      const rowsOf = (onClock: boolean, dueBy: (row: { readonly tenant: Tenant; readonly value: SubscriptionRecord }) => DateTime.Utc | undefined) =>
        documents.everyone()
          .sort((a, b) => (a.value.next_run_at?.epochMillis ?? 0) - (b.value.next_run_at?.epochMillis ?? 0) || (a.value.id < b.value.id ? -1 : 1))
          .map((row) => {
            const by = dueBy(row)
            return {
              id: row.value.id,
              lane: [row.tenant.organizationId, row.tenant.livemode] as const,
              waiting: row.value.next_run_at !== null && (row.value.test_clock !== null) === onClock,
              due: by !== undefined && row.value.next_run_at !== null && !DateTime.greaterThan(row.value.next_run_at, by),
              item: { tenant: row.tenant, subscriptionId: row.value.id, dueAt: row.value.next_run_at! }
            }
          })
      return {
        ...memoryRecordRepository(store, documents),
        list: (tenant, filter, page) =>
          documents.list(
            tenant,
            (subscription) =>
              (filter.status === undefined || subscription.status === filter.status) &&
              (filter.customer === undefined || subscription.customer_id === filter.customer) &&
              (filter.plan === undefined || subscription.plan_id === filter.plan) &&
              (filter.test_clock === undefined || subscription.test_clock === filter.test_clock),
            page
          ),
        claimDue: (lease) =>
          Effect.sync(() => {
            const onTime = leases.claimFair("due", rowsOf(false, () => lease.now), lease, BILLING_SHARE)
            if (onTime.length >= lease.limit) return onTime
            const onClocks = leases.claimFair(
              "on-clock",
              rowsOf(true, ({ tenant, value }) =>
                value.test_clock === null || advancing(value.test_clock, lease.now) ? undefined : clockOf(tenant, value.test_clock)?.frozen_time),
              { ...lease, limit: lease.limit - onTime.length },
              BILLING_SHARE
            )
            return [...onTime, ...onClocks]
          }),
        claimDueOnClock: (tenant, clockId, until, lease) =>
          claim(lease, (row) => row.tenant.organizationId === tenant.organizationId && row.value.test_clock === clockId ? until : undefined),
        dueOnClock: (tenant, clockId, until) =>
          Effect.sync(() =>
            documents.everyone().some((row) =>
              row.tenant.organizationId === tenant.organizationId && row.value.test_clock === clockId &&
              row.value.next_run_at !== null && !DateTime.greaterThan(row.value.next_run_at, until)
            )
          ),
        release: (id, token) => Effect.sync(() => leases.holds(id, token) && leases.release(id))
      }
    })
  )
}
