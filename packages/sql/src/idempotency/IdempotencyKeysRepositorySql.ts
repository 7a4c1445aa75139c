import { SqlClient } from "@effect/sql"
import type { Tenant } from "@orchestrator/core/domain/Tenant"
import type { IdempotencyRecord } from "@orchestrator/core/idempotency/IdempotencyKey"
import { IdempotencyKeysRepository } from "@orchestrator/core/idempotency/IdempotencyKeysRepository"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { Column, firstRow, fromRow } from "../shared/Rows.js"

/** An `idempotency_keys` row, as either driver gives it. */
const RecordRow = Schema.Struct({
  key: Column.text,
  fingerprint: Column.text,
  resource_id: Column.nullableText,
  response_status: Schema.NullOr(Column.integer),
  response_body: Column.nullableText,
  locked_until: Schema.NullOr(Column.timestamp),
  lock_token: Column.nullableText,
  created_at: Column.timestamp
})

const toRecord = fromRow(RecordRow, (row): IdempotencyRecord => ({
  key: row.key,
  fingerprint: row.fingerprint,
  resourceId: row.resource_id,
  // The status and the body are written together (`complete`), so a stored status always has its body.
  response: row.response_status === null ? null : { status: row.response_status, body: row.response_body ?? "" },
  lockedUntil: row.locked_until === null ? null : DateTime.unsafeMake(row.locked_until),
  lockToken: row.lock_token,
  createdAt: DateTime.unsafeMake(row.created_at)
}))

const at = (time: DateTime.Utc) => DateTime.formatIso(time)

export const IdempotencyKeysRepositorySql = Layer.effect(
  IdempotencyKeysRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ofKey = (tenant: Tenant, key: string) => sql`organization_id = ${tenant.organizationId} and livemode = ${tenant.livemode} and key = ${key}`
    const insert = (tenant: Tenant, record: IdempotencyRecord) =>
      sql`insert into idempotency_keys
          (organization_id, livemode, key, fingerprint, resource_id, locked_until, lock_token, created_at)
        values (${tenant.organizationId}, ${tenant.livemode}, ${record.key}, ${record.fingerprint}, ${record.resourceId},
          ${record.lockedUntil === null ? null : at(record.lockedUntil)}::timestamptz, ${record.lockToken},
          ${at(record.createdAt)}::timestamptz)
        on conflict do nothing returning key`
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
      acquire: (tenant, key, { lockToken, lockedUntil, now }) =>
        sql`update idempotency_keys set locked_until = ${at(lockedUntil)}::timestamptz, lock_token = ${lockToken}
          where ${ofKey(tenant, key)} and response_status is null
            and (locked_until is null or locked_until < ${at(now)}::timestamptz)
          returning *`.pipe(firstRow(toRecord)),
      attach: (tenant, key, lockToken, resourceId) =>
        sql`update idempotency_keys set resource_id = ${resourceId}
          where ${ofKey(tenant, key)} and lock_token = ${lockToken} returning 1 as held`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      complete: (tenant, key, lockToken, response) =>
        sql`update idempotency_keys set response_status = ${response.status}, response_body = ${response.body},
            locked_until = null, lock_token = null
          where ${ofKey(tenant, key)} and lock_token = ${lockToken}`.pipe(Effect.asVoid, Effect.orDie),
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
