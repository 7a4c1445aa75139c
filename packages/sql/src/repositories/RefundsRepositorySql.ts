import { SqlClient } from "@effect/sql"
import { Refund } from "@orchestrator/core/refunds/Refund"
import { RefundsRepository } from "@orchestrator/core/refunds/RefundsRepository"
import { InvalidCursor } from "@orchestrator/core/domain/Pagination"
import type { Tenant } from "@orchestrator/core/domain/Tenant"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { int, iso, json, parsed } from "./Rows.js"

const decode = Schema.decodeUnknownSync(Refund)
const encode = Schema.encodeSync(Refund)

const toRefund = (row: any): Refund =>
  decode({
    object: "refund",
    id: row.id,
    payment_id: row.payment_id,
    amount: int(row.amount),
    currency: row.currency,
    status: row.status,
    reason: row.reason,
    provider_refund_id: row.provider_refund_id,
    failure: parsed(row.failure),
    metadata: parsed(row.metadata),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    livemode: row.livemode
  })

export const RefundsRepositorySql = Layer.effect(
  RefundsRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ofTenant = (tenant: Tenant) =>
      sql`r.organization_id = ${tenant.organizationId} and r.livemode = ${tenant.livemode}`
    const findOne = (tenant: Tenant, id: string, forUpdate: boolean) =>
      (forUpdate
        ? sql`select r.* from refunds r where r.id = ${id} and ${ofTenant(tenant)} for update`
        : sql`select r.* from refunds r where r.id = ${id} and ${ofTenant(tenant)}`).pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toRefund)),
          Effect.orDie
        )

    return RefundsRepository.of({
      insert: (tenant, refund) => {
        const row = encode(refund)
        return sql`insert into refunds (id, organization_id, livemode, payment_id, amount, currency, status, reason,
            provider_refund_id, failure, metadata, created_at, updated_at)
          values (${row.id}, ${tenant.organizationId}, ${row.livemode}, ${row.payment_id}, ${row.amount},
            ${row.currency}, ${row.status}, ${row.reason}, ${row.provider_refund_id}, ${json(row.failure)}::jsonb,
            ${json(row.metadata)}::jsonb, ${row.created_at}::timestamptz, ${row.updated_at}::timestamptz)`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
      },
      update: (tenant, refund) => {
        const row = encode(refund)
        return sql`update refunds set status = ${row.status}, provider_refund_id = ${row.provider_refund_id},
            failure = ${json(row.failure)}::jsonb, metadata = ${json(row.metadata)}::jsonb,
            updated_at = ${row.updated_at}::timestamptz
          where id = ${row.id} and organization_id = ${tenant.organizationId}`.pipe(Effect.asVoid, Effect.orDie)
      },
      find: (tenant, id) => findOne(tenant, id, false),
      findForUpdate: (tenant, id) => findOne(tenant, id, true),
      list: (tenant, filter, page) =>
        Effect.gen(function*() {
          const conditions = [ofTenant(tenant)]
          if (filter.paymentId !== undefined) conditions.push(sql`r.payment_id = ${filter.paymentId}`)
          if (page.startingAfter !== undefined) {
            const cursor = yield* sql<{ created_at: Date }>`select created_at from refunds r
              where r.id = ${page.startingAfter} and ${ofTenant(tenant)}`.pipe(Effect.orDie)
            if (cursor.length === 0) return yield* new InvalidCursor({ cursor: page.startingAfter })
            conditions.push(sql`(r.created_at, r.id) < (${iso(cursor[0]!.created_at)}::timestamptz, ${page.startingAfter})`)
          }
          const rows = yield* sql`select r.* from refunds r where ${sql.and(conditions)}
            order by r.created_at desc, r.id desc limit ${page.limit + 1}`.pipe(Effect.orDie)
          return { data: rows.slice(0, page.limit).map(toRefund), hasMore: rows.length > page.limit }
        }),
      claimPending: ({ createdBefore, leaseUntil, limit, now }) =>
        sql<{ id: string; organization_id: string; livemode: boolean }>`update refunds set
            reconcile_lease_until = ${DateTime.formatIso(leaseUntil)}::timestamptz
          where id in (
            select r.id from refunds r
            where r.status = 'pending' and r.created_at < ${DateTime.formatIso(createdBefore)}::timestamptz
              and (r.reconcile_lease_until is null
                or r.reconcile_lease_until < ${DateTime.formatIso(now)}::timestamptz)
            order by r.created_at limit ${limit}
            for update skip locked)
          returning id, organization_id, livemode`.pipe(
          Effect.map((rows) =>
            rows.map((row) => ({
              tenant: { organizationId: row.organization_id, livemode: row.livemode },
              refundId: row.id
            }))
          ),
          Effect.orDie
        )
    })
  })
)
