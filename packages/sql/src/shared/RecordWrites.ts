import type { SqlClient, Statement } from "@effect/sql"
import type { CardReadAlong, CausingRequest, Event, IdempotencyRecord, KeyCompletion, Tenant } from "@orchestrator/core"
import { DateTime, Effect } from "effect"
import { EVENT_COLUMNS, eventRows, withCausingRequest } from "../events/EventsRepositorySql.js"
import { keyCompletion, keyInsert } from "../idempotency/KeyRidesSql.js"
import { cardForAccess } from "../vault/CardForAccess.js"
import { int } from "./Rows.js"
import { untraced } from "./Untraced.js"

/** Rows inserted by the same statement as a record's own write: its events, a payment's attempts. */
export interface RowsAlongside {
  readonly table: string
  readonly columns: string
  readonly rows: Statement.Fragment
  readonly conflict?: Statement.Fragment
}

/** A change's events as rows written alongside the record (none when there are none). */
export const eventsAlongside = (
  sql: SqlClient.SqlClient,
  tenant: Tenant,
  events: ReadonlyArray<Event>,
  cause: CausingRequest | null
): ReadonlyArray<RowsAlongside> =>
  events.length === 0 ? [] : [{ table: "events", columns: EVENT_COLUMNS, rows: eventRows(sql, tenant.organizationId, events, cause) }]

const cte = (sql: SqlClient.SqlClient, index: number, body: Statement.Fragment) => sql`${sql.literal(`alongside_${index}`)} as (${body} returning 1)`

/**
 * `statement` (a record's insert or update) with `alongside` written by data-modifying CTEs in front
 * of it: one statement, one round trip, atomic on its own. (Foreign keys are checked at the end of
 * the statement, when the record's row exists.)
 */
export const writeWith = (
  sql: SqlClient.SqlClient,
  statement: Statement.Fragment,
  alongside: ReadonlyArray<RowsAlongside>
): Effect.Effect<void> =>
  untraced(
    alongside.length === 0 ?
      sql`${statement}` :
      sql`with ${
        sql.csv(alongside.map((rows, index) =>
          cte(
            sql,
            index,
            sql`insert into ${sql.literal(rows.table)} (${sql.literal(rows.columns)})
        values ${rows.rows} ${rows.conflict ?? sql``}`
          )
        ))
      } ${statement}`
  ).pipe(Effect.asVoid, Effect.orDie)

/**
 * A read of another table's that the same statement makes when it writes (a vaulted payment's card,
 * through the vault's function): `select` gives at most one row, told to `found` (`null` for none)
 * once the statement wrote.
 */
export interface ReadAlong {
  readonly select: Statement.Fragment
  readonly found: (row: unknown) => void
}

/** A `ReadAlong`'s row, as PostgreSQL's `row_to_json` gives it (PGlite may hand the JSON over as text). */
const rowOf = (json: unknown): unknown => typeof json === "string" ? JSON.parse(json) : json ?? null

/**
 * A record's insert (`insert`, given the condition it is made under) and `alongside`, in one
 * statement; with a `key`, the Idempotency-Key is inserted by the same statement and everything
 * else only if it was (the key existing, nothing is written, nor read along). Whether it was written.
 */
export const insertWith = (
  sql: SqlClient.SqlClient,
  tenant: Tenant,
  insert: (only: Statement.Fragment) => Statement.Fragment,
  alongside: ReadonlyArray<RowsAlongside>,
  key: IdempotencyRecord | undefined,
  along?: ReadAlong
): Effect.Effect<boolean> => {
  if (key === undefined && along === undefined) return Effect.as(writeWith(sql, insert(sql``), alongside), true)
  const only = key === undefined ? sql`` : sql`where exists (select 1 from claimed)`
  const ctes = [
    ...(key === undefined ? [] : [sql`claimed as (${keyInsert(sql, tenant, key)} returning 1)`]),
    ...alongside.map((rows, index) =>
      cte(
        sql,
        index,
        sql`insert into ${sql.literal(rows.table)} (${sql.literal(rows.columns)})
        select * from (values ${rows.rows}) v ${only} ${rows.conflict ?? sql``}`
      )
    ),
    sql`written as (${insert(only)} returning 1)`,
    // A plain select runs only when the statement reads it: the final select does. Under a key, not
    // at all when the key exists (the condition is a one-time filter, checked before the read).
    ...(along === undefined ? [] : [sql`read_along as (select row_to_json(r) as row from (${along.select}) r ${only})`])
  ]
  const claimed = key === undefined ? sql`(select count(*)::integer from written)` : sql`(select count(*)::integer from claimed)`
  const read = along === undefined ? sql`` : sql`, (select row from read_along) as read_along`
  return untraced(sql<{ claimed: number; read_along?: unknown }>`with ${sql.csv(ctes)} select ${claimed} as claimed ${read}`).pipe(
    Effect.map((rows) => {
      const claimed = int(rows[0]?.claimed ?? 0) === 1
      if (claimed && along !== undefined) along.found(rowOf(rows[0]?.read_along))
      return claimed
    }),
    Effect.orDie
  )
}

/** A table with `status` and `updated_at` columns still holds the record as `seen`. */
export const unchangedColumns = (
  sql: SqlClient.SqlClient,
  seen: { readonly status: string; readonly updated_at: DateTime.Utc }
) => sql`status = ${seen.status} and updated_at = ${DateTime.formatIso(seen.updated_at)}::timestamptz`

/**
 * A record's update (`set`) and `alongside` in one statement, if the stored row is still as seen
 * (`unchanged`: same status, same `updated_at`): the update is the compare-and-set (under concurrency PostgreSQL
 * re-checks its condition on the newest row version), and the rows alongside are written only when
 * it matched, and so is the Idempotency-Key's `completion`. Whether it did.
 */
export const updateIfUnchanged = (sql: SqlClient.SqlClient, options: {
  readonly table: string
  readonly tenant: Tenant
  readonly id: string
  readonly unchanged: Statement.Fragment
  readonly set: Statement.Fragment
  readonly alongside: ReadonlyArray<RowsAlongside>
  readonly completion?: KeyCompletion | undefined
}): Effect.Effect<boolean> => {
  const { alongside, completion, tenant } = options
  const ctes = [
    sql`moved as (update ${sql.literal(options.table)} set ${options.set}
      where id = ${options.id} and organization_id = ${tenant.organizationId} and ${options.unchanged} returning id)`,
    ...alongside.map((rows, index) =>
      cte(
        sql,
        index,
        sql`insert into ${sql.literal(rows.table)} (${sql.literal(rows.columns)})
        select * from (values ${rows.rows}) v where exists (select 1 from moved) ${rows.conflict ?? sql``}`
      )
    ),
    ...(completion === undefined ? [] : [
      sql`completed as (${keyCompletion(sql, tenant, completion, sql`and exists (select 1 from moved)`)} returning 1)`
    ])
  ]
  return untraced(sql<{ moved: number }>`with ${sql.csv(ctes)} select count(*)::integer as moved from moved`).pipe(
    Effect.map((rows) => int(rows[0]?.moved ?? 0) === 1),
    Effect.orDie
  )
}

interface Stateful {
  readonly id: string
  readonly status: string
  readonly updated_at: DateTime.Utc
}

/**
 * The four writes of a table with `status` and `updated_at` columns: the record's insert and update,
 * each with its events (and `alongside`, a payment's attempts) in the same statement, and the update
 * as a compare-and-set. `encode` runs once a write.
 */
export const statusRecordWrites = <A extends Stateful, Row>(sql: SqlClient.SqlClient, options: {
  readonly table: string
  readonly encode: (record: A) => Row
  /** Made as `insert … select …` followed by `only`, the condition it is made under (empty when none). */
  readonly insert: (tenant: Tenant, row: Row, only: Statement.Fragment) => Statement.Fragment
  /** The columns a change may touch, `status` and `updated_at` among them. */
  readonly changed: (row: Row) => Statement.Fragment
  readonly alongside?: (row: Row) => ReadonlyArray<RowsAlongside>
}) => {
  const { table } = options
  const alongsideOf = options.alongside ?? (() => [])
  const insertWithEvents = (tenant: Tenant, record: A, events: ReadonlyArray<Event>, key?: IdempotencyRecord, cardRead?: CardReadAlong) => {
    const row = options.encode(record)
    const along = cardRead === undefined ? undefined : { select: cardForAccess(sql, tenant, cardRead.access), found: cardRead.found }
    return withCausingRequest((cause) =>
      insertWith(
        sql,
        tenant,
        (only) => options.insert(tenant, row, only),
        [...alongsideOf(row), ...eventsAlongside(sql, tenant, events, cause)],
        key,
        along
      )
    )
  }
  return {
    insert: (tenant: Tenant, record: A) => Effect.asVoid(insertWithEvents(tenant, record, [])),
    insertWithEvents,
    update: (tenant: Tenant, record: A) => {
      const row = options.encode(record)
      return writeWith(
        sql,
        sql`update ${sql(table)} set ${options.changed(row)}
        where id = ${record.id} and organization_id = ${tenant.organizationId}`,
        alongsideOf(row)
      )
    },
    updateIfUnchanged: (tenant: Tenant, seen: A, record: A, events: ReadonlyArray<Event>, completion?: KeyCompletion) => {
      const row = options.encode(record)
      return withCausingRequest((cause) =>
        updateIfUnchanged(sql, {
          table,
          tenant,
          id: record.id,
          unchanged: unchangedColumns(sql, seen),
          set: options.changed(row),
          alongside: [...alongsideOf(row), ...eventsAlongside(sql, tenant, events, cause)],
          completion
        })
      )
    }
  }
}
