import { SqlClient } from "@effect/sql"
import { IdempotencyKeysRepository, type IdempotencyRecord, type Tenant } from "@orchestrator/core"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { Column, firstRow, fromRow } from "../shared/Rows.js"
import { keyCompletion, keyInsert, ofKey as keyWhere } from "./KeyRidesSql.js"

/** An `idempotency_keys` row, as either driver gives it. */
const RecordRow = Schema.Struct({
  key: Column.text,
  fingerprint: Column.text,
  resource_id: Column.nullableText,
  response_status: Schema.NullOr(Column.integer),
  answer_outcome: Column.nullableText,
  response_body: Column.nullableText,
  locked_until: Schema.NullOr(Column.timestamp),
  lock_token: Column.nullableText,
  created_at: Column.timestamp
})

const toRecord = fromRow(RecordRow, (row): IdempotencyRecord => ({
  key: row.key,
  fingerprint: row.fingerprint,
  resourceId: row.resource_id,
  // The outcome and the body are written together (`complete`), so a stored outcome always has its body;
  // an answer kept before outcomes were (migration 0018) has its HTTP status instead.
  answer: row.answer_outcome !== null
    ? { outcome: row.answer_outcome, body: row.response_body ?? "" }
    : row.response_status === null
    ? null
    : { outcome: `http:${row.response_status}`, body: row.response_body ?? "" },
  lockedUntil: row.locked_until === null ? null : DateTime.unsafeMake(row.locked_until),
  lockToken: row.lock_token,
  createdAt: DateTime.unsafeMake(row.created_at)
}))

const at = (time: DateTime.Utc) => DateTime.formatIso(time)

export const IdempotencyKeysRepositorySql = Layer.effect(
  IdempotencyKeysRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ofKey = (tenant: Tenant, key: string) => keyWhere(sql, tenant, key)
    const insert = (tenant: Tenant, record: IdempotencyRecord) => sql`${keyInsert(sql, tenant, record)} returning key`
    return IdempotencyKeysRepository.of({
      start: (tenant, record) =>
        Effect.gen(function*() {
          // ON CONFLICT DO NOTHING makes concurrent first requests race safely: exactly one inserts.
          for (let round = 0; round < 3; round++) {
            if ((yield* insert(tenant, record)).length > 0) return Option.none()
            const rows = yield* sql`select * from idempotency_keys where ${ofKey(tenant, record.key)}`
            // Purged between the two statements: try the insert again.
            if (rows.length > 0) return Option.some(toRecord(rows[0]))
          }
          return yield* Effect.dieMessage(`idempotency key ${record.key} keeps vanishing`)
        }).pipe(Effect.orDie),
      find: (tenant, key) => sql`select * from idempotency_keys where ${ofKey(tenant, key)}`.pipe(firstRow(toRecord)),
      acquire: (tenant, key, { lockToken, lockedUntil, now }) =>
        sql`update idempotency_keys set locked_until = ${at(lockedUntil)}::timestamptz, lock_token = ${lockToken}
          where ${ofKey(tenant, key)} and answer_outcome is null and response_status is null
            and (locked_until is null or locked_until < ${at(now)}::timestamptz)
          returning *`.pipe(firstRow(toRecord)),
      attach: (tenant, key, lockToken, resourceId) =>
        sql`update idempotency_keys set resource_id = ${resourceId}
          where ${ofKey(tenant, key)} and lock_token = ${lockToken} returning 1 as held`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      complete: (tenant, key, lockToken, answer) => keyCompletion(sql, tenant, { key, lockToken, answer }, sql``).pipe(Effect.asVoid, Effect.orDie),
      release: (tenant, key, lockToken) =>
        sql`update idempotency_keys set locked_until = null, lock_token = null
          where ${ofKey(tenant, key)} and lock_token = ${lockToken}`.pipe(Effect.asVoid, Effect.orDie),
      purge: ({ createdBefore, now }) =>
        sql`delete from idempotency_keys where created_at < ${at(createdBefore)}::timestamptz
          and (locked_until is null or locked_until < ${at(now)}::timestamptz) returning key`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        )
    })
  })
)
