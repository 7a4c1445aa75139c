import { SqlClient } from "@effect/sql"
import type { IdempotencyRecord } from "@orchestrator/core/idempotency/IdempotencyKey"
import { IdempotencyKeysRepository } from "@orchestrator/core/idempotency/IdempotencyKeysRepository"
import { DateTime, Effect, Layer, Option } from "effect"
import { int, iso } from "./Rows.js"

const toRecord = (row: any): IdempotencyRecord => ({
  key: row.key,
  fingerprint: row.fingerprint,
  resourceId: row.resource_id,
  response: row.response_status === null ? null : { status: int(row.response_status), body: row.response_body },
  lockedUntil: row.locked_until === null ? null : DateTime.unsafeMake(iso(row.locked_until)),
  createdAt: DateTime.unsafeMake(iso(row.created_at))
})

const at = (time: DateTime.Utc) => DateTime.formatIso(time)

export const IdempotencyKeysRepositorySql = Layer.effect(
  IdempotencyKeysRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return IdempotencyKeysRepository.of({
      start: (tenant, record) =>
        Effect.gen(function*() {
          // ON CONFLICT DO NOTHING makes concurrent first requests race safely: exactly one inserts.
          const inserted = yield* sql`insert into idempotency_keys
              (organization_id, livemode, key, fingerprint, locked_until, created_at)
            values (${tenant.organizationId}, ${tenant.livemode}, ${record.key}, ${record.fingerprint},
              ${record.lockedUntil === null ? null : at(record.lockedUntil)}::timestamptz, ${at(record.createdAt)}::timestamptz)
            on conflict do nothing returning key`
          if (inserted.length > 0) return Option.none()
          const rows = yield* sql`select * from idempotency_keys where organization_id = ${tenant.organizationId}
            and livemode = ${tenant.livemode} and key = ${record.key}`
          return Option.map(Option.fromNullable(rows[0]), toRecord)
        }).pipe(Effect.orDie),
      acquire: (tenant, key, { lockedUntil, now }) =>
        sql`update idempotency_keys set locked_until = ${at(lockedUntil)}::timestamptz
          where organization_id = ${tenant.organizationId} and livemode = ${tenant.livemode} and key = ${key}
            and response_status is null and (locked_until is null or locked_until < ${at(now)}::timestamptz)
          returning *`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toRecord)),
          Effect.orDie
        ),
      attach: (tenant, key, resourceId) =>
        sql`update idempotency_keys set resource_id = ${resourceId} where organization_id = ${tenant.organizationId}
          and livemode = ${tenant.livemode} and key = ${key}`.pipe(Effect.asVoid, Effect.orDie),
      complete: (tenant, key, response) =>
        sql`update idempotency_keys set response_status = ${response.status}, response_body = ${response.body},
            locked_until = null
          where organization_id = ${tenant.organizationId} and livemode = ${tenant.livemode} and key = ${key}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      release: (tenant, key) =>
        sql`update idempotency_keys set locked_until = null where organization_id = ${tenant.organizationId}
          and livemode = ${tenant.livemode} and key = ${key}`.pipe(Effect.asVoid, Effect.orDie),
      purge: ({ createdBefore, now }) =>
        sql`delete from idempotency_keys where created_at < ${at(createdBefore)}::timestamptz
          and (locked_until is null or locked_until < ${at(now)}::timestamptz) returning key`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        )
    })
  })
)
