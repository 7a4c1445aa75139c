import { SqlClient } from "@effect/sql"
import { Customer } from "@orchestrator/core/subscriptions/Customer"
import { CustomersRepository } from "@orchestrator/core/subscriptions/CustomersRepository"
import { InvoiceRecord } from "@orchestrator/core/subscriptions/Invoice"
import { InvoicesRepository } from "@orchestrator/core/subscriptions/InvoicesRepository"
import { Plan } from "@orchestrator/core/subscriptions/Plan"
import { PlansRepository } from "@orchestrator/core/subscriptions/PlansRepository"
import { TestClock } from "@orchestrator/core/subscriptions/TestClock"
import { TestClocksRepository } from "@orchestrator/core/subscriptions/TestClocksRepository"
import { DateTime, Effect, Layer, Option } from "effect"
import { keysetPage } from "../shared/KeysetPage.js"
import { recordRows } from "./RecordRows.js"

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
      list: (tenant, filter, page) =>
        keysetPage(sql, {
          select: sql`c.record`,
          from: sql`customers c`,
          alias: "c",
          scope: rows.ofTenant(tenant, "c"),
          filters: filter.email === undefined ? [] : [sql`c.email = ${filter.email}`],
          page,
          decode: rows.decodeRow
        })
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
      list: (tenant, page) =>
        keysetPage(sql, {
          select: sql`p.record`,
          from: sql`plans p`,
          alias: "p",
          scope: rows.ofTenant(tenant, "p"),
          filters: [],
          page,
          decode: rows.decodeRow
        })
    })
  })
)

export const TestClocksRepositorySql = Layer.effect(
  TestClocksRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = recordRows(sql, "test_clocks", TestClock, (clock) => [
      ["frozen_time", sql`${DateTime.formatIso(clock.frozen_time)}::timestamptz`]
    ])
    return TestClocksRepository.of({
      insert: rows.insert,
      update: rows.update,
      remove: (tenant, id) =>
        sql`delete from test_clocks where id = ${id} and organization_id = ${tenant.organizationId}
          and livemode = ${tenant.livemode}`.pipe(Effect.asVoid, Effect.orDie),
      find: (tenant, id) => rows.find(tenant, id),
      list: (tenant, page) =>
        keysetPage(sql, {
          select: sql`k.record`,
          from: sql`test_clocks k`,
          alias: "k",
          scope: rows.ofTenant(tenant, "k"),
          filters: [],
          page,
          decode: rows.decodeRow
        })
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
      insert: rows.insert,
      update: rows.update,
      find: (tenant, id) => rows.find(tenant, id),
      findForUpdate: (tenant, id) => rows.find(tenant, id, true),
      findByPayment: (tenant, paymentId) =>
        sql`select i.record from invoices i where i.payment_id = ${paymentId} and ${rows.ofTenant(tenant, "i")}`.pipe(
          Effect.map((found) => Option.map(Option.fromNullable(found[0]), rows.decodeRow)),
          Effect.orDie
        ),
      list: (tenant, filter, page) =>
        keysetPage(sql, {
          select: sql`i.record`,
          from: sql`invoices i`,
          alias: "i",
          scope: rows.ofTenant(tenant, "i"),
          filters: filter.subscription === undefined ? [] : [sql`i.subscription_id = ${filter.subscription}`],
          page,
          decode: rows.decodeRow
        })
    })
  })
)
