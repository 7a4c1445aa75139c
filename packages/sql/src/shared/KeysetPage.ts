import type { SqlClient, Statement } from "@effect/sql"
import { InvalidCursor, type ListOrder, type Page, type PageRequest } from "@orchestrator/core"
import { Effect } from "effect"
import { iso } from "./Rows.js"

/**
 * Every list of the API: newest first by `(created_at, id)` (or by `id` alone when asked), `limit` + 1 rows to know whether there
 * is more, and `starting_after` resolved within the same `scope` (an id the caller cannot see is an
 * invalid cursor, never a way to probe). `table` is read as `alias`; `select` is every column
 * (`alias.*`) unless given.
 */
export const keysetPage = <A>(
  sql: SqlClient.SqlClient,
  options: {
    readonly table: string
    readonly alias: string
    readonly select?: Statement.Fragment
    readonly scope: Statement.Fragment
    readonly filters?: ReadonlyArray<Statement.Fragment>
    readonly page: PageRequest
    readonly decode: (row: unknown) => A
    /** `id`: newest first in the order rows were made (ids are time-ordered), whatever their `created_at`. */
    readonly order?: ListOrder | undefined
  }
): Effect.Effect<Page<A>, InvalidCursor> =>
  Effect.gen(function*() {
    const { alias, page } = options
    const column = (name: string) => sql(`${alias}.${name}`)
    const from = sql`${sql(options.table)} ${sql(alias)}`
    const select = options.select ?? sql.literal(`${alias}.*`)
    const conditions = [options.scope, ...(options.filters ?? [])]
    const byId = options.order === "id"
    if (page.startingAfter !== undefined) {
      const cursor = yield* sql<{ created_at: unknown }>`select ${column("created_at")} as created_at
        from ${from} where ${column("id")} = ${page.startingAfter} and ${options.scope}`.pipe(Effect.orDie)
      if (cursor.length === 0) return yield* new InvalidCursor({ cursor: page.startingAfter })
      conditions.push(
        byId
          ? sql`${column("id")} < ${page.startingAfter}`
          : sql`(${column("created_at")}, ${column("id")}) < (${iso(cursor[0]!.created_at)}::timestamptz, ${page.startingAfter})`
      )
    }
    const order = byId ? sql`${column("id")} desc` : sql`${column("created_at")} desc, ${column("id")} desc`
    const rows = yield* sql`select ${select} from ${from} where ${sql.and(conditions)}
      order by ${order} limit ${page.limit + 1}`.pipe(Effect.orDie)
    return { data: rows.slice(0, page.limit).map(options.decode), hasMore: rows.length > page.limit }
  })

/** A list's equality filters: `column = value` for each one the request gave (not `undefined`). */
export const equalsWhereGiven = (
  sql: SqlClient.SqlClient,
  equals: Readonly<Record<string, string | undefined>>
): ReadonlyArray<Statement.Fragment> => Object.entries(equals).flatMap(([column, value]) => value === undefined ? [] : [sql`${sql(column)} = ${value}`])
