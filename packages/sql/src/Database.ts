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
 * This process's pool of PostgreSQL connections, each preparing its statements (`PreparingClient`),
 * checked with a first statement (five seconds at most) as the driver's own layer does.
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
