import { SqlClient } from "@effect/sql"
import { Effect, Metric } from "effect"

/** Connections each process's pool may open to PostgreSQL. */
export const POOL_SIZE = 10

/**
 * The `application_name` of this process's connections: PostgreSQL then tells which connections are
 * this process's pool (`pg_stat_activity`), so each process reports its own use without a hook into
 * the driver's pool.
 */
export const processApplicationName = `payment-orchestrator pid ${process.pid}`

export const poolConnections = Metric.gauge("orchestrator_db_pool_connections", {
  description: "This process's PostgreSQL connections by state: in_use (running a statement or inside a transaction) and idle."
})

export const poolMaxConnections = Metric.gauge("orchestrator_db_pool_max_connections", {
  description: "The most connections this process's pool may open."
})

interface PoolRow {
  readonly open: number
  readonly idle: number
  readonly in_use: number
}

/**
 * Reads the pool's use from PostgreSQL at scrape time; the scrape's own connection counts as neither.
 * The embedded database (PGlite, one connection in the process) has no such view: nothing is reported.
 */
export const readPoolUse = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<PoolRow>`
    select count(*)::int as open,
           (count(*) filter (where state = 'idle'))::int as idle,
           (count(*) filter (where state <> 'idle' and pid <> pg_backend_pid()))::int as in_use
    from pg_stat_activity where application_name = ${processApplicationName}`
  if (row === undefined || row.open === 0) return
  yield* Metric.set(Metric.tagged(poolConnections, "state", "in_use"), row.in_use)
  yield* Metric.set(Metric.tagged(poolConnections, "state", "idle"), row.idle)
  yield* Metric.set(poolMaxConnections, POOL_SIZE)
}).pipe(Effect.catchAll(() => Effect.void))
