import { SqlClient, type Statement } from "@effect/sql"
import { Payment } from "@orchestrator/core/payments/Payment"
import { PaymentsRepository } from "@orchestrator/core/payments/PaymentsRepository"
import { InvalidCursor } from "@orchestrator/core/domain/Pagination"
import type { Tenant } from "@orchestrator/core/domain/Tenant"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { int, iso, json, parsed } from "./Rows.js"

const decode = Schema.decodeUnknownSync(Payment)
const encode = Schema.encodeSync(Payment)

const toPayment = (row: any): Payment =>
  decode({
    object: "payment",
    id: row.id,
    status: row.status,
    amount: int(row.amount),
    amount_captured: int(row.amount_captured),
    amount_refunded: int(row.amount_refunded),
    currency: row.currency,
    provider: row.provider,
    provider_payment_id: row.provider_payment_id,
    payment_method: parsed(row.payment_method),
    customer_id: row.customer_id,
    description: row.description,
    metadata: parsed(row.metadata),
    capture: row.capture,
    return_url: row.return_url,
    next_action: parsed(row.next_action),
    failure: parsed(row.failure),
    attempts: parsed<Array<any>>(row.attempts).map((attempt) => ({
      object: "payment_attempt",
      ...attempt,
      created_at: iso(attempt.created_at)
    })),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    livemode: row.livemode
  })

export const PaymentsRepositorySql = Layer.effect(
  PaymentsRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const selectPayments = sql`select p.*, coalesce((
        select json_agg(json_build_object(
          'id', a.id, 'provider', a.provider, 'status', a.status, 'provider_payment_id', a.provider_payment_id,
          'error_code', a.error_code, 'latency_ms', a.latency_ms, 'created_at', a.created_at
        ) order by a.position)
        from payment_attempts a where a.payment_id = p.id
      ), '[]'::json) as attempts
      from payments p`

    const ofTenant = (tenant: Tenant) =>
      sql`p.organization_id = ${tenant.organizationId} and p.livemode = ${tenant.livemode}`

    /** Leases the oldest payments matching `candidates` that no one holds; others are skipped, not waited on. */
    const claim = (
      candidates: Statement.Fragment,
      { leaseUntil, limit, now }: { readonly leaseUntil: DateTime.Utc; readonly now: DateTime.Utc; readonly limit: number }
    ) =>
      sql<{ id: string; organization_id: string; livemode: boolean }>`update payments set
          reconcile_lease_until = ${DateTime.formatIso(leaseUntil)}::timestamptz
        where id in (
          select p.id from payments p
          where ${candidates}
            and (p.reconcile_lease_until is null or p.reconcile_lease_until < ${DateTime.formatIso(now)}::timestamptz)
          order by p.updated_at limit ${limit}
          for update skip locked)
        returning id, organization_id, livemode`.pipe(
        Effect.map((rows) =>
          rows.map((row) => ({
            tenant: { organizationId: row.organization_id, livemode: row.livemode },
            paymentId: row.id
          }))
        ),
        Effect.orDie
      )

    const findOne = (tenant: Tenant, id: string, forUpdate: boolean) =>
      (forUpdate
        ? sql`${selectPayments} where p.id = ${id} and ${ofTenant(tenant)} for update of p`
        : sql`${selectPayments} where p.id = ${id} and ${ofTenant(tenant)}`).pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toPayment)),
          Effect.orDie
        )

    const saveAttempts = (payment: ReturnType<typeof encode>) =>
      Effect.forEach(payment.attempts, (attempt, position) =>
        sql`insert into payment_attempts
            (id, payment_id, position, provider, status, provider_payment_id, error_code, latency_ms, created_at)
          values (${attempt.id}, ${payment.id}, ${position}, ${attempt.provider}, ${attempt.status},
            ${attempt.provider_payment_id}, ${attempt.error_code}, ${attempt.latency_ms}, ${attempt.created_at}::timestamptz)
          on conflict (id) do update set status = excluded.status,
            provider_payment_id = excluded.provider_payment_id, error_code = excluded.error_code,
            latency_ms = excluded.latency_ms`, { discard: true })

    return PaymentsRepository.of({
      insert: (tenant, payment) => {
        const row = encode(payment)
        return Effect.zipRight(
          sql`insert into payments (id, organization_id, livemode, status, amount, amount_captured, amount_refunded,
              currency, provider, provider_payment_id, payment_method, customer_id, description, metadata, capture,
              return_url, next_action, failure, created_at, updated_at)
            values (${row.id}, ${tenant.organizationId}, ${row.livemode}, ${row.status}, ${row.amount},
              ${row.amount_captured}, ${row.amount_refunded}, ${row.currency}, ${row.provider},
              ${row.provider_payment_id}, ${json(row.payment_method)}::jsonb, ${row.customer_id}, ${row.description},
              ${json(row.metadata)}::jsonb, ${row.capture}, ${row.return_url}, ${json(row.next_action)}::jsonb,
              ${json(row.failure)}::jsonb, ${row.created_at}::timestamptz, ${row.updated_at}::timestamptz)`,
          saveAttempts(row)
        ).pipe(Effect.orDie)
      },
      update: (tenant, payment) => {
        const row = encode(payment)
        return Effect.zipRight(
          sql`update payments set status = ${row.status}, amount_captured = ${row.amount_captured},
              amount_refunded = ${row.amount_refunded}, provider_payment_id = ${row.provider_payment_id},
              payment_method = ${json(row.payment_method)}::jsonb, metadata = ${json(row.metadata)}::jsonb,
              next_action = ${json(row.next_action)}::jsonb, failure = ${json(row.failure)}::jsonb,
              updated_at = ${row.updated_at}::timestamptz
            where id = ${row.id} and organization_id = ${tenant.organizationId}`,
          saveAttempts(row)
        ).pipe(Effect.orDie)
      },
      find: (tenant, id) => findOne(tenant, id, false),
      findForUpdate: (tenant, id) => findOne(tenant, id, true),
      tenantOf: (id) =>
        sql<{ organization_id: string; livemode: boolean }>`select organization_id, livemode from payments where id = ${id}`
          .pipe(
            Effect.map((rows) =>
              Option.map(Option.fromNullable(rows[0]), (row) => ({
                organizationId: row.organization_id,
                livemode: row.livemode
              }))
            ),
            Effect.orDie
          ),
      list: (tenant, filter, page) =>
        Effect.gen(function*() {
          const conditions = [ofTenant(tenant)]
          if (filter.status !== undefined) conditions.push(sql`p.status = ${filter.status}`)
          if (filter.provider !== undefined) conditions.push(sql`p.provider = ${filter.provider}`)
          if (filter.currency !== undefined) conditions.push(sql`p.currency = ${filter.currency}`)
          if (filter.customer_id !== undefined) conditions.push(sql`p.customer_id = ${filter.customer_id}`)
          if (page.startingAfter !== undefined) {
            const cursor = yield* sql<{ created_at: Date }>`select created_at from payments p
              where p.id = ${page.startingAfter} and ${ofTenant(tenant)}`.pipe(Effect.orDie)
            if (cursor.length === 0) return yield* new InvalidCursor({ cursor: page.startingAfter })
            conditions.push(sql`(p.created_at, p.id) < (${iso(cursor[0]!.created_at)}::timestamptz, ${page.startingAfter})`)
          }
          const rows = yield* sql`${selectPayments} where ${sql.and(conditions)}
            order by p.created_at desc, p.id desc limit ${page.limit + 1}`.pipe(Effect.orDie)
          return { data: rows.slice(0, page.limit).map(toPayment), hasMore: rows.length > page.limit }
        }),
      claimUnanswered: ({ sentBefore, ...lease }) =>
        claim(
          sql`p.status = 'processing' and exists (select 1 from payment_attempts a where a.payment_id = p.id
            and a.status = 'pending' and a.created_at < ${DateTime.formatIso(sentBefore)}::timestamptz)`,
          lease
        ),
      claimStale: ({ status, updatedBefore, ...lease }) =>
        claim(sql`p.status = ${status} and p.updated_at < ${DateTime.formatIso(updatedBefore)}::timestamptz`, lease)
    })
  })
)
