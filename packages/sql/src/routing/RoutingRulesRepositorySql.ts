import { SqlClient } from "@effect/sql"
import { InvalidCursor, RoutingRule, RoutingRulesRepository } from "@orchestrator/core"
import { Effect, Layer, Schema } from "effect"
import { Column, firstRow, int, iso, json, objectFromRow, stampColumns } from "../shared/Rows.js"
import { tenantScope } from "../shared/TenantScope.js"

const encode = Schema.encodeSync(RoutingRule)

/** A `routing_rules` row: the columns the API shows, as either driver gives them. */
const RuleRow = Schema.Struct({
  id: Column.text,
  priority: Column.integer,
  conditions: Column.json,
  action: Column.json,
  enabled: Column.boolean,
  ...stampColumns
})

const toRule = objectFromRow(RuleRow, "routing_rule", RoutingRule)

/** Rules are listed in evaluation order, not newest first: that is the order they are read in. */
export const RoutingRulesRepositorySql = Layer.effect(
  RoutingRulesRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ofTenant = tenantScope(sql, "r")
    const order = sql`order by r.priority, r.created_at, r.id`
    return RoutingRulesRepository.of({
      insert: (tenant, rule) => {
        const row = encode(rule)
        return sql`insert into routing_rules (id, organization_id, livemode, priority, conditions, action, enabled,
            created_at, updated_at)
          values (${row.id}, ${tenant.organizationId}, ${row.livemode}, ${row.priority},
            ${json(row.conditions)}::jsonb, ${json(row.action)}::jsonb, ${row.enabled},
            ${row.created_at}::timestamptz, ${row.updated_at}::timestamptz)`.pipe(Effect.asVoid, Effect.orDie)
      },
      update: (tenant, rule) => {
        const row = encode(rule)
        return sql`update routing_rules set priority = ${row.priority}, conditions = ${json(row.conditions)}::jsonb,
            action = ${json(row.action)}::jsonb, enabled = ${row.enabled}, updated_at = ${row.updated_at}::timestamptz
          where id = ${row.id} and organization_id = ${tenant.organizationId}`.pipe(Effect.asVoid, Effect.orDie)
      },
      delete: (tenant, id) =>
        sql`delete from routing_rules r where r.id = ${id} and ${ofTenant(tenant)} returning id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      find: (tenant, id) => sql`select * from routing_rules r where r.id = ${id} and ${ofTenant(tenant)}`.pipe(firstRow(toRule)),
      all: (tenant) =>
        sql`select * from routing_rules r where ${ofTenant(tenant)} ${order}`.pipe(
          Effect.map((rows) => rows.map(toRule)),
          Effect.orDie
        ),
      page: (tenant, page) =>
        Effect.gen(function*() {
          const conditions = [ofTenant(tenant)]
          if (page.startingAfter !== undefined) {
            const cursor = yield* sql<{ priority: unknown; created_at: unknown }>`select priority, created_at
              from routing_rules r where r.id = ${page.startingAfter} and ${ofTenant(tenant)}`.pipe(Effect.orDie)
            if (cursor.length === 0) return yield* new InvalidCursor({ cursor: page.startingAfter })
            conditions.push(sql`(r.priority, r.created_at, r.id) >
              (${int(cursor[0]!.priority)}, ${iso(cursor[0]!.created_at)}::timestamptz, ${page.startingAfter})`)
          }
          const rows = yield* sql`select * from routing_rules r where ${sql.and(conditions)} ${order}
            limit ${page.limit + 1}`.pipe(Effect.orDie)
          return { data: rows.slice(0, page.limit).map(toRule), hasMore: rows.length > page.limit }
        })
    })
  })
)
