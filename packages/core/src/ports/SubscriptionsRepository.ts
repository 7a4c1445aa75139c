import { Context, DateTime, Effect } from "effect"
import type { FairShare, Leased, LeaseRequest } from "../domain/LeasedWork.js"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { SubscriptionListFilter, SubscriptionRecord } from "../domain/subscriptions/Subscription.js"
import type { Tenant } from "../domain/Tenant.js"
import type { RecordRepository } from "./RecordStore.js"

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
>() {}
