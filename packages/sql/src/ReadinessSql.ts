import { SqlClient } from "@effect/sql"
import { Readiness } from "@orchestrator/core"
import { Effect, Layer, Option } from "effect"
import { isDatabaseUnavailable } from "./DatabaseErrors.js"
import { appliedMigration, LATEST_MIGRATION } from "./Migrations.js"

/**
 * Ready means: the database answers within two seconds and has every migration this build knows.
 * Unavailable means: PostgreSQL's or the driver's way of saying the server went away.
 */
export const ReadinessSql = Layer.effect(
  Readiness,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    problem: appliedMigration.pipe(
      Effect.provideService(SqlClient.SqlClient, sql),
      Effect.timeout("2 seconds"),
      Effect.map((applied) =>
        applied >= LATEST_MIGRATION
          ? Option.none()
          : Option.some(`database schema is at migration ${applied}, this build needs ${LATEST_MIGRATION}`)
      ),
      Effect.catchAll(() => Effect.succeed(Option.some("database unreachable")))
    ),
    isUnavailable: isDatabaseUnavailable
  }))
)
