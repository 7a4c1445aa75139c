import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { lockEmbedded } from "./EmbeddedLock.js"
import { runMigrations } from "./Migrations.js"
import { POOL_SIZE, processApplicationName } from "./observability/PoolUse.js"
import * as PgliteClient from "./PgliteClient.js"

/** Where the data lives: a PostgreSQL server, or the embedded PGlite in a directory (or in memory). */
export type DatabaseConfig =
  | { readonly _tag: "Postgres"; readonly url: Redacted.Redacted }
  | { readonly _tag: "Embedded"; readonly dataDir: string | undefined }

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

/** The `SqlClient` for a configuration, before migrations. */
export const clientLayer = (config: DatabaseConfig): Layer.Layer<SqlClient.SqlClient, unknown> =>
  config._tag === "Postgres"
    ? PgClient.layer({ url: config.url, maxConnections: POOL_SIZE, applicationName: processApplicationName })
    : config.dataDir === undefined
    ? PgliteClient.layer({ dataDir: undefined })
    : Layer.unwrapScoped(Effect.as(lockEmbedded(config.dataDir), PgliteClient.layer({ dataDir: config.dataDir })))

/** The `SqlClient` with every migration applied: what every process starts with. */
export const layer = (config: DatabaseConfig): Layer.Layer<SqlClient.SqlClient, unknown> =>
  Layer.effectDiscard(runMigrations).pipe(Layer.provideMerge(clientLayer(config)))
