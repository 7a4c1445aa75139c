import { SqlClient, type Statement } from "@effect/sql"
import { BILLING_SHARE, type DueSubscription, type LeaseRequest, SubscriptionRecord, SubscriptionsRepository, type Tenant } from "@orchestrator/core"
import { DateTime, Effect, Layer } from "effect"
import { type FairQueue, laneCursor } from "../shared/FairClaims.js"
import { equalsWhereGiven } from "../shared/KeysetPage.js"
import { claimLeased } from "../shared/LeasedClaims.js"
import { iso } from "../shared/Rows.js"
import { recordRepositoryOf, recordRows, timeOrNull } from "./RecordRows.js"

interface DueRow {
  readonly id: string
  readonly organization_id: string
  readonly livemode: boolean
  readonly next_run_at: unknown
}

export const SubscriptionsRepositorySql = Layer.effect(
  SubscriptionsRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = recordRows(sql, "subscriptions", SubscriptionRecord, (subscription) => [
      ["status", sql`${subscription.status}`],
      ["customer_id", sql`${subscription.customer_id}`],
      ["plan_id", sql`${subscription.plan_id}`],
      ["test_clock", sql`${subscription.test_clock}`],
      ["next_run_at", timeOrNull(sql, subscription.next_run_at)]
    ])
    const onTime = laneCursor()
    const onClocks = laneCursor()
    const claim = (due: Statement.Fragment, lease: LeaseRequest, fair?: FairQueue) =>
      claimLeased<DueRow, DueSubscription>(sql, {
        table: "subscriptions",
        due,
        order: sql`next_run_at, id`,
        returning: sql`id, organization_id, livemode, next_run_at`,
        lease,
        ...(fair === undefined ? {} : { fair }),
        item: (row) => ({
          tenant: { organizationId: row.organization_id, livemode: row.livemode },
          subscriptionId: row.id,
          dueAt: DateTime.unsafeMake(iso(row.next_run_at))
        })
      })
    const at = (time: DateTime.Utc) => sql`${DateTime.formatIso(time)}::timestamptz`
    return SubscriptionsRepository.of({
      ...recordRepositoryOf(rows),
      list: (tenant, filter, page) =>
        rows.page(
          tenant,
          "s",
          page,
          equalsWhereGiven(sql, {
            "s.status": filter.status,
            "s.customer_id": filter.customer,
            "s.plan_id": filter.plan,
            "s.test_clock": filter.test_clock
          })
        ),
      // On a test clock, "now" is the clock's frozen time; a deleted clock's subscriptions are never
      // due, nor those of a clock an advance holds: that advance runs them, in time order.
      // Subscriptions on the real clock, then (with what is left of the limit) those on test clocks:
      // two queues, each by its own lane index, so the real clock's due ones are one range per lane.
      claimDue: (lease) =>
        Effect.gen(function*() {
          const due = yield* claim(sql`next_run_at <= ${at(lease.now)}`, lease, {
            waiting: sql`next_run_at is not null and test_clock is null`,
            share: BILLING_SHARE,
            cursor: onTime
          })
          if (due.length >= lease.limit) return due
          const dueOnClocks = yield* claim(
            sql`next_run_at <= (select k.frozen_time from test_clocks k where k.id = subscriptions.test_clock
              and (k.lease_until is null or k.lease_until < ${at(lease.now)}))`,
            { ...lease, limit: lease.limit - due.length },
            { waiting: sql`next_run_at is not null and test_clock is not null`, share: BILLING_SHARE, cursor: onClocks }
          )
          return [...due, ...dueOnClocks]
        }),
      dueOnClock: (tenant, clockId, until) =>
        sql`select exists (select 1 from subscriptions where test_clock = ${clockId}
            and organization_id = ${tenant.organizationId} and next_run_at is not null
            and next_run_at <= ${at(until)}) as due`.pipe(
          Effect.map((found) => found[0]?.due === true),
          Effect.orDie
        ),
      claimDueOnClock: (tenant: Tenant, clockId, until, lease) =>
        claim(
          sql`test_clock = ${clockId} and organization_id = ${tenant.organizationId}
            and next_run_at is not null and next_run_at <= ${at(until)}`,
          lease
        ),
      release: (id, token) =>
        sql`update subscriptions set lease_until = null, lease_token = null where id = ${id} and lease_token = ${token}`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
    })
  })
)
