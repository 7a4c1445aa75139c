import { DateTime, Effect, Layer } from "effect"
import type { LeaseRequest } from "../domain/LeasedWork.js"
import type { SubscriptionRecord } from "../domain/subscriptions/Subscription.js"
import type { TestClock } from "../domain/subscriptions/TestClock.js"
import type { Tenant } from "../domain/Tenant.js"
import { BILLING_SHARE, SubscriptionsRepository } from "../ports/SubscriptionsRepository.js"
import { memoryDocuments } from "./MemoryDocuments.js"
import { memoryLeases } from "./MemoryLeases.js"
import { memoryRecordRepository } from "./MemoryRecordWrites.js"
import { MemoryStore } from "./MemoryStore.js"

/** `SubscriptionsRepository` in memory: for the core's tests and `CoreMemory`, on the same paths production takes. */
export const MemorySubscriptionsRepository = Layer.effect(
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
