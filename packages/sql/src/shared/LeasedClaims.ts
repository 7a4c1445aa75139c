import type { SqlClient, Statement } from "@effect/sql"
import { type LaneKey, type Leased, type LeaseRequest, MAX_LANES_PER_CLAIM, randomBase32 } from "@orchestrator/core"
import { DateTime, Effect } from "effect"
import { fairClaimStatement, type FairQueue } from "./FairClaims.js"
import { untraced } from "./Untraced.js"

/** A lane as the statement answers it: a JSON array, parsed by one driver and not the other. */
const laneOf = (value: unknown): LaneKey | null => {
  if (value === null || value === undefined) return null
  return (typeof value === "string" ? JSON.parse(value) : value) as LaneKey
}

/**
 * Every background job's claim: leases up to `limit` rows of `table` that are `due` and that no
 * worker holds (`lease_until` unset, or reached), oldest by `order` first, and answers them in that
 * order (`returning` must include the columns of `order`). Rows another worker is claiming at this
 * very moment are skipped, not waited on (`FOR UPDATE SKIP LOCKED`). The table needs `id`,
 * `lease_until` and `lease_token` columns.
 *
 * With `fair`, the claim takes turns over the queue's lanes and keeps to their caps instead of
 * taking the oldest rows of the whole table (see `FairShare` and `fairClaimStatement`); `returning`
 * then names the table's columns without `*` of the statement's other relations (`events.*`).
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
    readonly fair?: FairQueue
  }
): Effect.Effect<ReadonlyArray<Leased<A>>> => {
  const token = randomBase32(20)
  const { fair, lease } = options
  if (fair !== undefined) {
    return fairClaimStatement(sql, { ...options, token, fair }).pipe(
      Effect.map((rows) => {
        const claimed = rows.filter((row) => row.id !== null && row.id !== undefined)
        const last = claimed.reduce<(typeof claimed)[number] | undefined>(
          (found, row) => found === undefined || Number(row.claim_step) > Number(found.claim_step) ? row : found,
          undefined
        )
        const walked = rows[0]
        if (last !== undefined) fair.cursor.value = laneOf(last.claim_lane)
        else if (walked !== undefined && Number(walked.ring_visited) >= MAX_LANES_PER_CLAIM) fair.cursor.value = laneOf(walked.ring_lane)
        return claimed.map((row) => ({ item: options.item(row as unknown as Row), token }))
      }),
      Effect.orDie
    )
  }
  return sql<Row>`with claimed as (
      update ${sql(options.table)} set
        lease_until = ${DateTime.formatIso(lease.until)}::timestamptz, lease_token = ${token}
      where id in (
        select id from ${sql(options.table)}
        where ${options.due}
          and (lease_until is null or lease_until <= ${DateTime.formatIso(lease.now)}::timestamptz)
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
  untraced(sql`update ${sql(options.table)} set ${options.set}, lease_until = null, lease_token = null
    where id = ${options.id} and lease_token = ${options.token} returning id`).pipe(
    Effect.map((rows) => rows.length > 0),
    Effect.orDie
  )

/**
 * The holder of a leased row has finished with it: it no longer counts as in flight, and waits out
 * its lease (`until`, when given, instead) before it is due again. Only while `token` still holds it.
 */
export const finishLeased = (
  sql: SqlClient.SqlClient,
  options: { readonly table: string; readonly id: string; readonly token: string; readonly until?: DateTime.Utc }
): Effect.Effect<void> =>
  untraced(sql`update ${sql(options.table)} set lease_token = null
      ${options.until === undefined ? sql`` : sql`, lease_until = ${DateTime.formatIso(options.until)}::timestamptz`}
    where id = ${options.id} and lease_token = ${options.token}`).pipe(Effect.asVoid, Effect.orDie)
