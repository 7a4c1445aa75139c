import type { SqlClient, Statement } from "@effect/sql"
import type { Tenant } from "@orchestrator/core/domain/Tenant"
import type { Event } from "@orchestrator/core/events/Event"
import { Payment } from "@orchestrator/core/payments/Payment"
import { DateTime, Effect, Schema } from "effect"
import { EVENT_COLUMNS, eventRows } from "../events/EventsRepositorySql.js"
import { int, json } from "../shared/Rows.js"

const encode = Schema.encodeSync(Payment)

/**
 * How a payment is written: inserted, updated, or updated only if unchanged since it was read, each
 * with its attempts (and a change's events) in the same statement.
 */
export const paymentWrites = (sql: SqlClient.SqlClient) => {
  const attemptRows = (payment: ReturnType<typeof encode>) =>
    sql.csv(payment.attempts.map((attempt, position) =>
      sql`(${attempt.id}, ${payment.id}, ${position}::integer, ${attempt.provider}, ${attempt.status},
        ${attempt.provider_payment_id}, ${attempt.error_code}, ${attempt.latency_ms}::integer, ${attempt.created_at}::timestamptz)`
    ))

  const ATTEMPT_COLUMNS = "id, payment_id, position, provider, status, provider_payment_id, error_code, latency_ms, created_at"
  const upsertAttempts = sql`on conflict (id) do update set status = excluded.status,
          provider_payment_id = excluded.provider_payment_id, error_code = excluded.error_code,
          latency_ms = excluded.latency_ms`

  /**
   * The payment's attempts (and a change's events), written by data-modifying CTEs put in front of the
   * payment's own insert or update: the payment, its attempts and its events in one statement, one
   * round trip. (Foreign keys are checked at the end of the statement, when the payment row exists.)
   */
  const withAttempts = (payment: ReturnType<typeof encode>, events: ReadonlyArray<Event> = [], organizationId = "") => {
    const ctes = [
      ...(payment.attempts.length === 0 ? [] : [sql`attempts as (insert into payment_attempts (${sql.literal(ATTEMPT_COLUMNS)})
        values ${attemptRows(payment)} ${upsertAttempts} returning 1)`]),
      ...(events.length === 0 ? [] : [sql`events as (insert into events (${sql.literal(EVENT_COLUMNS)})
        values ${eventRows(sql, organizationId, events)} returning 1)`])
    ]
    return ctes.length === 0 ? sql`` : sql`with ${sql.csv(ctes)} `
  }

  const insertPayment = (tenant: Tenant, payment: Payment, events: ReadonlyArray<Event>) => {
    const row = encode(payment)
    return sql`${withAttempts(row, events, tenant.organizationId)}insert into payments (id, organization_id, livemode, status, amount, amount_captured, amount_refunded,
          currency, provider, provider_payment_id, routing, payment_method, customer_id, description, metadata,
          capture, off_session, return_url, next_action, failure, created_at, updated_at)
        values (${row.id}, ${tenant.organizationId}, ${row.livemode}, ${row.status}, ${row.amount},
          ${row.amount_captured}, ${row.amount_refunded}, ${row.currency}, ${row.provider},
          ${row.provider_payment_id}, ${json(row.routing)}::jsonb, ${json(row.payment_method)}::jsonb,
          ${row.customer_id}, ${row.description},
          ${json(row.metadata)}::jsonb, ${row.capture}, ${row.off_session}, ${row.return_url},
          ${json(row.next_action)}::jsonb, ${json(row.failure)}::jsonb, ${row.created_at}::timestamptz,
          ${row.updated_at}::timestamptz)`.pipe(Effect.asVoid, Effect.orDie)
  }

  /** The columns a change of a payment may touch (never its amount, currency, tenant or creation). */
  const changedColumns = (row: ReturnType<typeof encode>) =>
    sql`status = ${row.status}, amount_captured = ${row.amount_captured},
            amount_refunded = ${row.amount_refunded}, provider = ${row.provider},
            provider_payment_id = ${row.provider_payment_id}, payment_method = ${json(row.payment_method)}::jsonb,
            metadata = ${json(row.metadata)}::jsonb, next_action = ${json(row.next_action)}::jsonb,
            failure = ${json(row.failure)}::jsonb, updated_at = ${row.updated_at}::timestamptz`

  /**
   * The payment, its attempts and its events in one statement, if the stored row is still as `seen`:
   * the update is the compare-and-set (under concurrency PostgreSQL re-checks its condition on the
   * newest row version), and the attempts and events are written only when it matched.
   */
  const updateIfUnchanged = (tenant: Tenant, seen: Payment, payment: Payment, events: ReadonlyArray<Event>) => {
    const row = encode(payment)
    const guarded = (table: string, columns: string, rows: Statement.Fragment, conflict: Statement.Fragment) =>
      sql`insert into ${sql.literal(table)} (${sql.literal(columns)})
        select * from (values ${rows}) v where exists (select 1 from moved) ${conflict} returning 1`
    const ctes = [
      sql`moved as (update payments set ${changedColumns(row)}
        where id = ${row.id} and organization_id = ${tenant.organizationId} and status = ${seen.status}
          and updated_at = ${DateTime.formatIso(seen.updated_at)}::timestamptz returning id)`,
      ...(row.attempts.length === 0 ? [] : [sql`attempts as (${guarded("payment_attempts", ATTEMPT_COLUMNS, attemptRows(row), upsertAttempts)})`]),
      ...(events.length === 0 ? [] : [sql`events as (${guarded("events", EVENT_COLUMNS, eventRows(sql, tenant.organizationId, events), sql``)})`])
    ]
    return sql<{ moved: number }>`with ${sql.csv(ctes)} select count(*)::integer as moved from moved`.pipe(
      Effect.map((rows) => int(rows[0]?.moved ?? 0) === 1),
      Effect.orDie
    )
  }

  return {
    insert: insertPayment,
    update: (tenant: Tenant, payment: Payment) => {
      const row = encode(payment)
      return sql`${withAttempts(row)}update payments set ${changedColumns(row)}
          where id = ${row.id} and organization_id = ${tenant.organizationId}`.pipe(Effect.asVoid, Effect.orDie)
    },
    updateIfUnchanged
  }
}
