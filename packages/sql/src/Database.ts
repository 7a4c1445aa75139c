import { SqlClient, SqlError } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Layer, Redacted } from "effect"
import pg from "pg"
import { lockEmbedded } from "./EmbeddedLock.js"
import { runMigrations } from "./Migrations.js"
import { POOL_SIZE, processApplicationName } from "./observability/PoolUse.js"
import * as PgliteClient from "./PgliteClient.js"
import { PreparingClient } from "./PreparedStatements.js"

/** Where the data lives: a PostgreSQL server, or the embedded PGlite in a directory (or in memory). */
export type DatabaseConfig =
  | { readonly _tag: "Postgres"; readonly url: Redacted.Redacted }
  | { readonly _tag: "Embedded"; readonly dataDir?: string | undefined }

export const describe = (config: DatabaseConfig): string =>
  config._tag === "Postgres"
    ? `PostgreSQL at ${safeUrl(Redacted.value(config.url))}`
    : config.dataDir === undefined
    ? "embedded PostgreSQL (PGlite) in memory"
    : `embedded PostgreSQL (PGlite) in ${config.dataDir}`

/** A connection string without its password, for logs. */
export const safeUrl = (url: string): string => {
  try {
    const parsed = new URL(url)
    if (parsed.password !== "") parsed.password = "***"
    return parsed.toString()
  } catch {
    return "(unparseable DATABASE_URL)"
  }
}

/**
 * What every connection of the service sets first. No JIT: PostgreSQL compiles a statement whose
 * estimated cost passes `jit_above_cost` (100 000), and a webhook claim on a backlog of 100 000
 * deliveries is estimated at about 277 000 once the table's statistics catch up: 82 ms of compiling
 * for 25 ms of work, each claim, which took the drain from 600 to 26 deliveries a second. The
 * service's statements are short, indexed reads and writes that never earn a compile back.
 */
export const SESSION_SETTINGS = "set jit = off"

/**
 * This process's pool of PostgreSQL connections, each preparing its statements (`PreparingClient`),
 * with `SESSION_SETTINGS` sent before its first statement, and checked with a first statement (five
 * seconds at most) as the driver's own layer does.
 */
const preparingPool = (url: Redacted.Redacted) =>
  Effect.acquireRelease(
    Effect.sync(() =>
      new pg.Pool({
        connectionString: Redacted.value(url),
        max: POOL_SIZE,
        application_name: processApplicationName,
        Client: PreparingClient
      })
    ),
    (pool) => Effect.promise(() => pool.end()).pipe(Effect.interruptible, Effect.timeoutOption(1000))
  ).pipe(
    Effect.tap((pool) => {
      // A pool reports a lost idle connection here; the next statement reconnects.
      pool.on("error", () => {})
      // Queued on the new connection ahead of any statement the pool hands it; a failure (a server
      // without the setting) leaves the server's default.
      pool.on("connect", (client) => void client.query(SESSION_SETTINGS).catch(() => {}))
      return Effect.tryPromise({
        try: () => pool.query("select 1"),
        catch: (cause) => new SqlError.SqlError({ cause, message: "PgClient: Failed to connect" })
      }).pipe(
        Effect.timeoutFail({
          duration: Duration.seconds(5),
          onTimeout: () => new SqlError.SqlError({ cause: new Error("Connection timed out"), message: "PgClient: Connection timed out" })
        })
      )
    })
  )

/** The `SqlClient` for a configuration, before migrations. */
export const clientLayer = (config: DatabaseConfig): Layer.Layer<SqlClient.SqlClient, unknown> =>
  config._tag === "Postgres"
    ? PgClient.layerFromPool({ acquire: preparingPool(config.url), applicationName: processApplicationName })
    : config.dataDir === undefined
    ? PgliteClient.layer({ dataDir: undefined })
    : Layer.unwrapScoped(Effect.as(lockEmbedded(config.dataDir), PgliteClient.layer({ dataDir: config.dataDir })))

/** The `SqlClient` with every migration applied: what every process starts with. */
export const layer = (config: DatabaseConfig): Layer.Layer<SqlClient.SqlClient, unknown> =>
  Layer.effectDiscard(runMigrations).pipe(Layer.provideMerge(clientLayer(config)))
