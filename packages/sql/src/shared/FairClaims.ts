import type { SqlClient, Statement } from "@effect/sql"
import { type FairShare, type LaneKey, type LeaseRequest, MAX_LANES_PER_CLAIM } from "@orchestrator/core"
import { DateTime } from "effect"

/** Where a queue's next claim starts in this process: after the lane its last claim served. */
export interface LaneCursor {
  value: LaneKey | null
}

export const laneCursor = (): LaneCursor => ({ value: null })

/** How a queue of a table is shared between organizations (see `FairShare`). */
export interface FairQueue {
  /**
   * The lane's columns after `organization_id` and `livemode`, text (`provider`, `endpoint_id`):
   * none when a lane is an organization's mode.
   */
  readonly lanes?: ReadonlyArray<string>
  /**
   * What rows wait in the queue at all: the predicate of the queue's partial index, whose columns
   * are, after equalities this predicate fixes, the lane's (`collate "C"`), then the claim's order.
   */
  readonly waiting: Statement.Fragment
  /** The share when the request carries none. */
  readonly share: FairShare
  /** A lane's own cap instead of `perLane`, reading the lane as `l` (`l.endpoint_id`). */
  readonly laneCap?: Statement.Fragment
  /**
   * Whether caps apply: a queue whose items are quick database work (the outbox) only takes turns.
   * When they do, the table needs a partial index of its lane's columns `where lease_token is not null`.
   */
  readonly capped?: boolean
  readonly cursor: LaneCursor
}

/** The columns a fair claim adds to each row it answers, besides the caller's `returning`. */
export interface FairColumns {
  readonly claim_step: unknown
  readonly claim_lane: unknown
}

const at = (time: DateTime.Utc) => DateTime.formatIso(time)

/**
 * The statement of a fair claim, taking the decisions `fairPick` (the memory twin) describes.
 * Every step reads an index: the lanes with waiting rows are walked one index probe each from the
 * cursor (a loose index scan), each lane offers its first due rows in the claim's order by a range
 * of the same index, and what is in flight is counted in the small partial index of leased rows.
 * Answers the claimed rows in the order of the claim's turns (with `claim_step`, `claim_lane`), or,
 * when none is claimed, one row
 * without `id` that says which lane the walk ended on (`ring_lane`, `ring_visited`).
 */
export const fairClaimStatement = (
  sql: SqlClient.SqlClient,
  options: {
    readonly table: string
    readonly due: Statement.Fragment
    readonly order: Statement.Fragment
    readonly returning: Statement.Fragment
    readonly lease: LeaseRequest
    readonly token: string
    readonly fair: FairQueue
  }
) => {
  const { fair, lease } = options
  const table = sql(options.table)
  const rest = fair.lanes ?? []
  const share = lease.share ?? fair.share
  const now = sql`${at(lease.now)}::timestamptz`
  /** The lane's columns of `prefix` (or the table's), as the lane index orders them. */
  const lane = (prefix?: string) =>
    sql.csv([
      prefix === undefined ? sql`organization_id collate "C"` : sql`${sql(prefix)}.organization_id collate "C"`,
      prefix === undefined ? sql`livemode` : sql`${sql(prefix)}.livemode`,
      ...rest.map((column) => prefix === undefined ? sql`${sql(column)} collate "C"` : sql`${sql(prefix)}.${sql(column)} collate "C"`)
    ])
  const plain = (prefix: string) => sql.csv(["organization_id", "livemode", ...rest].map((column) => sql`${sql(prefix)}.${sql(column)}`))
  const sameLane = (left: string | undefined, right: string, tenantOnly = false) =>
    sql.and(["organization_id", "livemode", ...(tenantOnly ? [] : rest)].map((column) => {
      const own = left === undefined ? sql`${sql(column)}` : sql`${sql(left)}.${sql(column)}`
      return column === "livemode" ? sql`${own} = ${sql(right)}.livemode` : sql`${own} collate "C" = ${sql(right)}.${sql(column)}`
    }))
  const cursor = fair.cursor.value
  const cursorRow = sql.csv([
    sql`${cursor?.[0] ?? null}::text`,
    sql`${cursor?.[1] ?? null}::boolean`,
    ...rest.map((_, i) => sql`${(cursor?.[i + 2] as string | undefined) ?? null}::text`)
  ])
  const next = (after: Statement.Fragment) =>
    sql`(select ${sql.csv(["organization_id", "livemode", ...rest].map((column) => sql`${sql(column)}`))} from ${table}
        where ${fair.waiting} and (${lane()}) > (${after}) order by ${lane()} limit 1)
      union all
      (select ${sql.csv(["organization_id", "livemode", ...rest].map((column) => sql`${sql(column)}`))} from ${table}
        where ${fair.waiting} order by ${lane()} limit 1)
      limit 1`
  const inFlight = (tenantOnly: boolean) =>
    sql`(select count(*) from ${table} f where ${sameLane("f", "l", tenantOnly)}
      and f.lease_token is not null and f.lease_until > ${now})`
  const capped = fair.capped ?? true
  const laneRoom = capped ? sql`${fair.laneCap ?? sql`${share.perLane}::int`} - ${inFlight(false)}` : sql`${lease.limit}::int`
  const tenantRoom = capped ? sql`${share.perTenant}::int - ${inFlight(true)}` : sql`${lease.limit}::int`
  const ringFirst = sql.csv(["organization_id", "livemode", ...rest].map((column) => sql`s.${sql(column)} as ${sql(`first_${column}`)}`))
  const ringCarry = sql.csv(["organization_id", "livemode", ...rest].map((column) => sql`ring.${sql(`first_${column}`)}`))
  const firstLane = sql.csv(["organization_id", "livemode", ...rest].map((column) => sql`ring.${sql(`first_${column}`)}`))
  const laneJson = (prefix: string) => sql`json_build_array(${plain(prefix)})`
  return sql<FairColumns & { readonly id: string | null; readonly ring_visited: number | null; readonly ring_lane: unknown }>`
    with recursive ring as (
      select s.*, 1 as step, ${ringFirst} from (${next(cursorRow)}) s
      union all
      select ${plain("n")}, ring.step + 1, ${ringCarry} from ring cross join lateral (${next(plain("ring"))}) n
      where ring.step < ${MAX_LANES_PER_CLAIM}::int and (${plain("n")}) is distinct from (${firstLane})
    ),
    lanes as (
      select l.*, ${laneRoom} as lane_room, ${tenantRoom} as tenant_room from ring l
    ),
    candidates as (
      select c.id, c.in_lane, l.step, l.organization_id, l.livemode, l.tenant_room, ${laneJson("l")} as claim_lane
      from lanes l cross join lateral (
        select s.id, row_number() over () as in_lane from (
          select ${table}.id from ${table}
          where ${sameLane(undefined, "l")} and ${fair.waiting} and ${options.due}
            and (${table}.lease_until is null or ${table}.lease_until <= ${now})
          order by ${options.order}
          limit greatest(0, least(l.lane_room, l.tenant_room, ${lease.limit}::int))
        ) s
      ) c
    ),
    chosen as (
      select ranked.id, ranked.step, ranked.claim_lane, ranked.livemode as claim_live, ranked.in_lane as claim_rank from (
        select candidates.*, row_number() over (partition by organization_id, livemode order by in_lane, step) as in_tenant
        from candidates
      ) ranked
      where ranked.in_tenant <= ranked.tenant_room
      order by ranked.livemode desc, ranked.in_lane, ranked.step
      limit ${lease.limit}::int
    ),
    locked as (
      select ${table}.id as claim_id, chosen.step as claim_step, chosen.claim_lane, chosen.claim_live, chosen.claim_rank
      from ${table}
      join chosen on chosen.id = ${table}.id
      where ${table}.lease_until is null or ${table}.lease_until <= ${now}
      for update of ${table} skip locked
    ),
    claimed as (
      update ${table} set lease_until = ${at(lease.until)}::timestamptz, lease_token = ${options.token}
      from locked where ${table}.id = locked.claim_id
      returning ${options.returning}, locked.claim_step, locked.claim_lane, locked.claim_live, locked.claim_rank
    ),
    walked as (
      select step as ring_visited, ${laneJson("ring")} as ring_lane from ring order by step desc limit 1
    )
    select claimed.*, walked.* from (select 1) one
      left join walked on true
      left join claimed on true
    order by claimed.claim_live desc, claimed.claim_rank, claimed.claim_step`
}
