import type { SqlClient, Statement } from "@effect/sql"
import type { Event, IdempotencyRecord, KeyCompletion, PageRequest, RecordRepository, Tenant } from "@orchestrator/core"
import { DateTime, Effect, Option, Schema } from "effect"
import { withCausingRequest } from "../events/EventsRepositorySql.js"
import { keysetPage } from "../shared/KeysetPage.js"
import { eventsAlongside, insertWith, updateIfUnchanged, writeWith } from "../shared/RecordWrites.js"
import { Column, json } from "../shared/Rows.js"
import { tenantScope } from "../shared/TenantScope.js"

/** A billing row as read: only its `record` column, whichever way the driver gave the json. */
const RecordRow = Schema.Struct({ record: Column.json })

interface Stored {
  readonly id: string
  readonly created_at: DateTime.Utc
  readonly livemode: boolean
}

interface Stateful extends Stored {
  readonly status: string
  readonly updated_at: DateTime.Utc
}

/**
 * The billing tables keep each record whole in `record` (jsonb), with the columns queries need
 * beside it. This writes and reads such rows for one table and one record schema.
 */
export const recordRows = <A extends Stored, I>(
  sql: SqlClient.SqlClient,
  table: string,
  schema: Schema.Schema<A, I>,
  /** The table's own columns, from the record. */
  columns: (value: A) => ReadonlyArray<readonly [string, Statement.Fragment]>
) => {
  const decode = Schema.decodeUnknownSync(schema)
  const encode = Schema.encodeSync(schema)
  const decodeRecord = Schema.decodeUnknownSync(RecordRow)
  const decodeRow = (row: unknown): A => decode(decodeRecord(row).record)
  const ofTenant = (tenant: Tenant, alias: string) => tenantScope(sql, alias)(tenant)
  const recordOf = (value: A) => sql`${json(encode(value))}::jsonb`
  /** The record (and a change's events) in one statement. */
  const insertWithEvents = (tenant: Tenant, value: A, events: ReadonlyArray<Event>, key?: IdempotencyRecord) => {
    const all: ReadonlyArray<readonly [string, Statement.Fragment]> = [
      ["id", sql`${value.id}`],
      ["organization_id", sql`${tenant.organizationId}`],
      ["livemode", sql`${value.livemode}`],
      ["created_at", sql`${DateTime.formatIso(value.created_at)}::timestamptz`],
      ["record", recordOf(value)],
      ...columns(value)
    ]
    return withCausingRequest((cause) =>
      insertWith(
        sql,
        tenant,
        (only) =>
          sql`insert into ${sql(table)} (${sql.literal(all.map(([name]) => name).join(", "))})
        select ${sql.csv(all.map(([, fragment]) => fragment))} ${only}`,
        eventsAlongside(sql, tenant, events, cause),
        key
      )
    )
  }
  const changedColumns = (value: A) =>
    sql.csv([["record", recordOf(value)] as const, ...columns(value)].map(([name, fragment]) => sql`${sql(name)} = ${fragment}`))

  return {
    decodeRow,
    ofTenant,
    insert: (tenant: Tenant, value: A) => Effect.asVoid(insertWithEvents(tenant, value, [])),
    insertWithEvents,
    update: (tenant: Tenant, value: A) =>
      writeWith(
        sql,
        sql`update ${sql(table)} set ${changedColumns(value)}
        where id = ${value.id} and organization_id = ${tenant.organizationId}`,
        []
      ),
    /**
     * See `RecordStore`. These tables keep `updated_at` only inside `record`; `status` is a column
     * (a record schema without one cannot be moved).
     */
    updateIfUnchanged: (tenant: Tenant, seen: A & Stateful, value: A, events: ReadonlyArray<Event>, completion?: KeyCompletion) =>
      withCausingRequest((cause) =>
        updateIfUnchanged(sql, {
          table,
          tenant,
          id: value.id,
          unchanged: sql`status = ${seen.status}
          and (record ->> 'updated_at')::timestamptz = ${DateTime.formatIso(seen.updated_at)}::timestamptz`,
          set: changedColumns(value),
          alongside: eventsAlongside(sql, tenant, events, cause),
          completion
        })
      ),
    /** One page of the tenant's records, read as `alias` for the `filters`. */
    page: (tenant: Tenant, alias: string, page: PageRequest, filters?: ReadonlyArray<Statement.Fragment>) =>
      keysetPage(sql, {
        table,
        alias,
        select: sql`${sql(`${alias}.record`)}`,
        scope: ofTenant(tenant, alias),
        ...(filters === undefined ? {} : { filters }),
        page,
        decode: decodeRow
      }),
    find: (tenant: Tenant, id: string, forUpdate = false) =>
      sql`select t.record from ${sql(table)} t where t.id = ${id} and ${ofTenant(tenant, "t")}
        ${forUpdate ? sql`for update` : sql``}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), decodeRow)),
        Effect.orDie
      )
  }
}

/** The `RecordRepository` of a table of records with a status: the lifecycle's store over its `recordRows`. */
export const recordRepositoryOf = <A extends Stateful>(
  rows: ReturnType<typeof recordRows<A, unknown>>
): RecordRepository<A> => ({
  insert: rows.insert,
  update: rows.update,
  insertWithEvents: rows.insertWithEvents,
  updateIfUnchanged: rows.updateIfUnchanged,
  find: (tenant, id) => rows.find(tenant, id),
  findForUpdate: (tenant, id) => rows.find(tenant, id, true)
})

/** A nullable time as a `timestamptz` parameter. */
export const timeOrNull = (sql: SqlClient.SqlClient, time: DateTime.Utc | null) => sql`${time === null ? null : DateTime.formatIso(time)}::timestamptz`
