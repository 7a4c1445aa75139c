import type { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { appliedMigration, LATEST_MIGRATION } from "./Migrations.js"

/**
 * Ready means: the database answers within two seconds and has every migration this build knows.
 * `Some(reason)` says why not.
 */
export const readinessProblem: Effect.Effect<Option.Option<string>, never, SqlClient.SqlClient> =
  appliedMigration.pipe(
    Effect.timeout("2 seconds"),
    Effect.map((applied) =>
      applied >= LATEST_MIGRATION
        ? Option.none()
        : Option.some(`database schema is at migration ${applied}, this build needs ${LATEST_MIGRATION}`)
    ),
    Effect.catchAll(() => Effect.succeed(Option.some("database unreachable")))
  )
