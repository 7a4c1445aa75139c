import type { SqlClient } from "@effect/sql"
import { PaymentEncoding } from "@orchestrator/core"
import { type RowsAlongside, statusRecordWrites } from "../shared/RecordWrites.js"
import { json } from "../shared/Rows.js"

const encode = PaymentEncoding.encode

/**
 * How a payment is written: inserted, updated, or updated only if unchanged since it was read, each
 * with its attempts (and its events) in the same statement.
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

  /** The payment's attempts, written with it (inserted, or updated when they exist). */
  const attemptsAlongside = (payment: ReturnType<typeof encode>): ReadonlyArray<RowsAlongside> =>
    payment.attempts.length === 0
      ? []
      : [{ table: "payment_attempts", columns: ATTEMPT_COLUMNS, rows: attemptRows(payment), conflict: upsertAttempts }]

  /** Never a payment's amount, currency, tenant or creation: what a change of it may touch. */
  return statusRecordWrites(sql, {
    table: "payments",
    encode,
    insert: (tenant, row, only) =>
      sql`insert into payments (id, organization_id, livemode, status, amount, amount_captured, amount_refunded,
        amount_disputed, disputed, currency, provider, provider_payment_id, routing, payment_method, customer_id, description, metadata,
        capture, off_session, return_url, next_action, failure, created_at, updated_at)
      select ${row.id}, ${tenant.organizationId}, ${row.livemode}, ${row.status}, ${row.amount},
        ${row.amount_captured}, ${row.amount_refunded}, ${row.amount_disputed}, ${row.disputed}, ${row.currency}, ${row.provider},
        ${row.provider_payment_id}, ${json(row.routing)}::jsonb, ${json(row.payment_method)}::jsonb,
        ${row.customer_id}, ${row.description},
        ${json(row.metadata)}::jsonb, ${row.capture}, ${row.off_session}, ${row.return_url},
        ${json(row.next_action)}::jsonb, ${json(row.failure)}::jsonb, ${row.created_at}::timestamptz,
        ${row.updated_at}::timestamptz ${only}`,
    changed: (row) =>
      sql`status = ${row.status}, amount_captured = ${row.amount_captured},
          amount_refunded = ${row.amount_refunded}, amount_disputed = ${row.amount_disputed},
          disputed = ${row.disputed}, provider = ${row.provider},
          provider_payment_id = ${row.provider_payment_id}, payment_method = ${json(row.payment_method)}::jsonb,
          metadata = ${json(row.metadata)}::jsonb, next_action = ${json(row.next_action)}::jsonb,
          failure = ${json(row.failure)}::jsonb, updated_at = ${row.updated_at}::timestamptz`,
    alongside: attemptsAlongside
  })
}
