import type { SqlClient, Statement } from "@effect/sql"
import type { IdempotencyRecord, KeyCompletion, Tenant } from "@orchestrator/core"
import { DateTime } from "effect"

const at = (time: DateTime.Utc | null) => (time === null ? null : DateTime.formatIso(time))

export const ofKey = (sql: SqlClient.SqlClient, tenant: Tenant, key: string) =>
  sql`organization_id = ${tenant.organizationId} and livemode = ${tenant.livemode} and key = ${key}`

/**
 * The key's insert, unless it exists (concurrent first requests race safely: exactly one inserts),
 * with its answer when it has one already. Alone (`start`), or riding with a record's insert.
 */
export const keyInsert = (sql: SqlClient.SqlClient, tenant: Tenant, record: IdempotencyRecord) =>
  sql`insert into idempotency_keys (organization_id, livemode, key, fingerprint, resource_id, answer_outcome,
      response_body, locked_until, lock_token, created_at)
    values (${tenant.organizationId}, ${tenant.livemode}, ${record.key}, ${record.fingerprint}, ${record.resourceId},
      ${record.answer?.outcome ?? null}, ${record.answer?.body ?? null}, ${at(record.lockedUntil)}::timestamptz,
      ${record.lockToken}, ${at(record.createdAt)}::timestamptz)
    on conflict do nothing`

/** The key completed with its answer while `lockToken` holds it, and where `only` (a further condition) holds. */
export const keyCompletion = (sql: SqlClient.SqlClient, tenant: Tenant, completion: KeyCompletion, only: Statement.Fragment) =>
  sql`update idempotency_keys set answer_outcome = ${completion.answer.outcome}, response_body = ${completion.answer.body},
      locked_until = null, lock_token = null
    where ${ofKey(sql, tenant, completion.key)} and lock_token = ${completion.lockToken} ${only}`
