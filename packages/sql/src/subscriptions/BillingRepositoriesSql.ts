import { SqlClient } from "@effect/sql"
import {
  type AbandonedAdvance,
  Customer,
  CustomersRepository,
  InvoiceRecord,
  InvoicesRepository,
  Plan,
  PlansRepository,
  randomBase32,
  TestClock,
  TestClocksRepository
} from "@orchestrator/core"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { laneCursor } from "../shared/FairClaims.js"
import { equalsWhereGiven } from "../shared/KeysetPage.js"
import { claimLeased } from "../shared/LeasedClaims.js"
import { iso, json } from "../shared/Rows.js"
import { recordRepositoryOf, recordRows } from "./RecordRows.js"

export const CustomersRepositorySql = Layer.effect(
  CustomersRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = recordRows(sql, "customers", Customer, (customer) => [
      ["email", sql`${customer.email}`],
      ["test_clock", sql`${customer.test_clock}`]
    ])
    return CustomersRepository.of({
      insert: rows.insert,
      find: (tenant, id) => rows.find(tenant, id),
      list: (tenant, filter, page) => rows.page(tenant, "c", page, equalsWhereGiven(sql, { "c.email": filter.email }))
    })
  })
)

export const PlansRepositorySql = Layer.effect(
  PlansRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = recordRows(sql, "plans", Plan, (plan) => [["amount", sql`${plan.amount}`]])
    return PlansRepository.of({
      insert: rows.insert,
      find: (tenant, id) => rows.find(tenant, id),
      list: (tenant, page) => rows.page(tenant, "p", page)
    })
  })
)

export const TestClocksRepositorySql = Layer.effect(
  TestClocksRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const abandoned = laneCursor()
    const rows = recordRows(sql, "test_clocks", TestClock, (clock) => [
      ["frozen_time", sql`${DateTime.formatIso(clock.frozen_time)}::timestamptz`]
    ])
    const at = (time: DateTime.Utc) => sql`${DateTime.formatIso(time)}::timestamptz`
    const encode = Schema.encodeSync(TestClock)
    return TestClocksRepository.of({
      insert: rows.insert,
      remove: (tenant, id) =>
        sql`delete from test_clocks where id = ${id} and organization_id = ${tenant.organizationId}
          and livemode = ${tenant.livemode}`.pipe(Effect.asVoid, Effect.orDie),
      find: (tenant, id) => rows.find(tenant, id),
      list: (tenant, page) => rows.page(tenant, "k", page),
      // One statement: the row lock makes two processes' starts take turns, and the second sees the first's lease.
      startAdvance: (tenant, id, target, lease) =>
        Effect.gen(function*() {
          const token = randomBase32(20)
          const started = yield* sql`update test_clocks k set advance_to = ${at(target)}, lease_until = ${at(lease.until)},
              lease_token = ${token}, record = jsonb_set(k.record, '{status}', '"advancing"')
            where ${rows.ofTenant(tenant, "k")} and k.id = ${id}
              and (k.lease_until is null or k.lease_until < ${at(lease.now)}) and k.frozen_time < ${at(target)}
            returning k.record`
          if (started[0] !== undefined) return { _tag: "Started", clock: rows.decodeRow(started[0]), token } as const
          const found = yield* sql<{ readonly record: unknown; readonly busy: boolean }>`select k.record,
              (k.lease_until is not null and k.lease_until >= ${at(lease.now)}) as busy
            from test_clocks k where ${rows.ofTenant(tenant, "k")} and k.id = ${id}`
          const row = found[0]
          if (row === undefined) return { _tag: "Missing" } as const
          if (row.busy) return { _tag: "Busy" } as const
          return { _tag: "NotForward", clock: rows.decodeRow(row) } as const
        }).pipe(Effect.orDie),
      holdAdvance: (tenant, id, token, until) =>
        sql`update test_clocks set lease_until = ${at(until)}
          where id = ${id} and organization_id = ${tenant.organizationId} and lease_token = ${token} returning id`.pipe(
          Effect.map((updated) => updated.length > 0),
          Effect.orDie
        ),
      finishAdvance: (tenant, clock, token) =>
        sql`update test_clocks set record = ${json(encode(clock))}::jsonb, frozen_time = ${at(clock.frozen_time)},
            advance_to = null, lease_until = null, lease_token = null
          where id = ${clock.id} and organization_id = ${tenant.organizationId} and lease_token = ${token} returning id`.pipe(
          Effect.map((updated) => updated.length > 0),
          Effect.orDie
        ),
      claimAbandoned: (lease) =>
        claimLeased<
          { readonly id: string; readonly organization_id: string; readonly livemode: boolean; readonly advance_to: unknown; readonly record: unknown },
          Omit<AbandonedAdvance, "token">
        >(sql, {
          table: "test_clocks",
          due: sql`true`,
          order: sql`id`,
          returning: sql`id, organization_id, livemode, advance_to, record`,
          lease,
          // Organizations take turns; no cap (an abandoned advance is rare, and finished one at a time).
          fair: { waiting: sql`advance_to is not null`, share: { perTenant: lease.limit, perLane: lease.limit }, capped: false, cursor: abandoned },
          item: (row) => ({
            tenant: { organizationId: row.organization_id, livemode: row.livemode },
            clock: rows.decodeRow(row),
            target: DateTime.unsafeMake(iso(row.advance_to))
          })
        }).pipe(Effect.map((claimed) => claimed.map(({ item, token }) => ({ ...item, token }))))
    })
  })
)

export const InvoicesRepositorySql = Layer.effect(
  InvoicesRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = recordRows(sql, "invoices", InvoiceRecord, (invoice) => [
      ["subscription_id", sql`${invoice.subscription_id}`],
      ["status", sql`${invoice.status}`],
      ["amount_due", sql`${invoice.amount_due}`],
      ["amount_paid", sql`${invoice.amount_paid}`],
      ["payment_id", sql`${invoice.payment_id}`]
    ])
    return InvoicesRepository.of({
      ...recordRepositoryOf(rows),
      findByPayment: (tenant, paymentId) =>
        sql`select i.record from invoices i where i.payment_id = ${paymentId} and ${rows.ofTenant(tenant, "i")}`.pipe(
          Effect.map((found) => Option.map(Option.fromNullable(found[0]), rows.decodeRow)),
          Effect.orDie
        ),
      list: (tenant, filter, page) =>
        rows.page(tenant, "i", page, [
          ...equalsWhereGiven(sql, { "i.subscription_id": filter.subscription }),
          // A subscription stays on its customer's clock for life: its invoices are the clock's.
          ...(filter.test_clock === undefined ? [] : [sql`i.subscription_id in (select s.id from subscriptions s
            where s.test_clock = ${filter.test_clock} and s.organization_id = i.organization_id)`])
        ])
    })
  })
)
