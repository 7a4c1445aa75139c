import type { SqlClient } from "@effect/sql"
import { WebhookAttempt, type WebhookDeliveriesRepository } from "@orchestrator/core"
import { type Context, DateTime, Effect, Schema } from "effect"

type Repository = Context.Tag.Service<typeof WebhookDeliveriesRepository>

const encodeAttempt = Schema.encodeSync(WebhookAttempt)

const at = (time: DateTime.Utc) => DateTime.formatIso(time)

/**
 * One statement, so atomic without a transaction: one round trip instead of four (begin, update,
 * insert, commit). The attempt is written only if the update found the delivery under our lease.
 */
export const recordAttempt = (sql: SqlClient.SqlClient): Repository["recordAttempt"] => ({ item, token }, record) => {
  const { attempt } = record
  const row = encodeAttempt(attempt)
  return sql<{ recorded: number }>`with updated as (
      update webhook_deliveries set status = ${record.status},
        attempt_count = attempt_count + 1, last_response_status = ${attempt.response_status},
        last_error = ${attempt.error},
        next_attempt_at = ${record.nextAttemptAt === null ? null : at(record.nextAttemptAt)}::timestamptz,
        delivered_at = ${record.status === "succeeded" ? row.attempted_at : null}::timestamptz,
        updated_at = ${row.attempted_at}::timestamptz, lease_until = null, lease_token = null
      where id = ${item.deliveryId} and lease_token = ${token} returning id),
    recorded as (
      insert into webhook_delivery_attempts (id, delivery_id, attempted_at, response_status, error,
        duration_ms, response_body)
      select ${row.id}, updated.id, ${row.attempted_at}::timestamptz, ${row.response_status},
        ${row.error}, ${row.duration_ms}, ${row.response_body}
      from updated returning id)
    select count(*)::int as recorded from recorded`.pipe(
    Effect.map((rows) => Number(rows[0]?.recorded ?? 0) > 0),
    Effect.orDie
  )
}

export const recordAttempts = (sql: SqlClient.SqlClient): Repository["recordAttempts"] => (attempts) => {
  if (attempts.length === 0) return Effect.void
  const values = sql.csv(attempts.map(({ leased: { item, token }, record }) => {
    const row = encodeAttempt(record.attempt)
    return sql`(${item.deliveryId}, ${token}, ${record.status}, ${row.response_status}::integer, ${row.error},
      ${record.nextAttemptAt === null ? null : at(record.nextAttemptAt)}::timestamptz,
      ${record.status === "succeeded" ? row.attempted_at : null}::timestamptz, ${row.attempted_at}::timestamptz,
      ${row.id}, ${row.duration_ms}::integer, ${row.response_body})`
  }))
  // As `recordAttempt`, for all of them in one statement: deliveries whose lease this worker
  // no longer holds are neither updated nor given an attempt.
  return sql`with v (id, token, status, response_status, error, next_attempt_at, delivered_at, attempted_at,
        attempt_id, duration_ms, response_body) as (values ${values}),
      updated as (
        update webhook_deliveries d set status = v.status, attempt_count = d.attempt_count + 1,
          last_response_status = v.response_status, last_error = v.error, next_attempt_at = v.next_attempt_at,
          delivered_at = v.delivered_at, updated_at = v.attempted_at, lease_until = null, lease_token = null
        from v where d.id = v.id and d.lease_token = v.token returning d.id)
    insert into webhook_delivery_attempts (id, delivery_id, attempted_at, response_status, error, duration_ms,
        response_body)
      select v.attempt_id, v.id, v.attempted_at, v.response_status, v.error, v.duration_ms, v.response_body
      from v join updated on updated.id = v.id`.pipe(Effect.asVoid, Effect.orDie)
}
