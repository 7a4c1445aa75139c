import type { SqlClient, Statement } from "@effect/sql"
import { type Leased, type LeaseRequest, randomBase32 } from "@orchestrator/core"
import { DateTime, Effect } from "effect"

/**
 * Every background job's claim: leases up to `limit` rows of `table` that are `due` and that no
 * worker holds (`lease_until` unset or past), oldest by `order` first, and answers them in that
 * order (`returning` must include the columns of `order`). Rows another worker is claiming at this
 * very moment are skipped, not waited on (`FOR UPDATE SKIP LOCKED`). The table needs `id`,
 * `lease_until` and `lease_token` columns.
 */
export const claimLeased = <Row extends { readonly id: string }, A>(
  sql: SqlClient.SqlClient,
  options: {
    readonly table: string
    readonly due: Statement.Fragment
    readonly order: Statement.Fragment
    readonly returning: Statement.Fragment
    readonly lease: LeaseRequest
    readonly item: (row: Row) => A
  }
): Effect.Effect<ReadonlyArray<Leased<A>>> => {
  const token = randomBase32(20)
  const { lease } = options
  return sql<Row>`with claimed as (
      update ${sql(options.table)} set
        lease_until = ${DateTime.formatIso(lease.until)}::timestamptz, lease_token = ${token}
      where id in (
        select id from ${sql(options.table)}
        where ${options.due}
          and (lease_until is null or lease_until < ${DateTime.formatIso(lease.now)}::timestamptz)
        order by ${options.order} limit ${lease.limit}
        for update skip locked)
      returning ${options.returning})
    select * from claimed order by ${options.order}`.pipe(
    Effect.map((rows) => rows.map((row) => ({ item: options.item(row), token }))),
    Effect.orDie
  )
}

/**
 * Finishes a leased row, only while `token` still holds it: a worker whose lease lapsed (and whose
 * row someone else has taken since) changes nothing. True when it was still the holder.
 */
export const completeLeased = (
  sql: SqlClient.SqlClient,
  options: { readonly table: string; readonly id: string; readonly token: string; readonly set: Statement.Fragment }
): Effect.Effect<boolean> =>
  sql`update ${sql(options.table)} set ${options.set}, lease_until = null, lease_token = null
    where id = ${options.id} and lease_token = ${options.token} returning id`.pipe(
    Effect.map((rows) => rows.length > 0),
    Effect.orDie
  )
