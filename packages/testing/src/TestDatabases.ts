import * as Reactivity from "@effect/experimental/Reactivity"
import type { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Database } from "@orchestrator/sql"
import { Effect, Layer, Redacted } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"

/** A database a test suite can own: fresh, migrated, and gone when the suite ends. */
export interface TestDatabase {
  readonly name: "pglite" | "postgres"
  readonly layer: Layer.Layer<SqlClient.SqlClient, unknown>
}

const adminStatement = (url: string, statement: string) =>
  Effect.scoped(
    Effect.flatMap(PgClient.make({ url: Redacted.make(url), maxConnections: 1 }), (admin) => admin.unsafe(statement))
  ).pipe(Effect.provide(Reactivity.layer), Effect.orDie)

const freshName = () => `orchestrator_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`

/** A new database on the server of `DATABASE_URL`, dropped when the scope closes. */
const createPostgres = (url: string) =>
  Effect.gen(function*() {
    const name = freshName()
    yield* Effect.acquireRelease(
      adminStatement(url, `create database "${name}"`),
      () => adminStatement(url, `drop database if exists "${name}" with (force)`)
    )
    const target = new URL(url)
    target.pathname = `/${name}`
    return { _tag: "Postgres", url: Redacted.make(target.toString()) } satisfies Database.DatabaseConfig
  })

/** A new database on the server of `DATABASE_URL`, dropped afterwards, so runs never see each other's rows. */
const postgres = (url: string): TestDatabase => ({
  name: "postgres",
  layer: Layer.unwrapScoped(Effect.map(createPostgres(url), Database.layer))
})

/** A PGlite data directory of its own, removed when the scope closes. */
const createDataDir = Effect.acquireRelease(
  Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "orchestrator-test-"))),
  (dir) => Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))
).pipe(Effect.map((dir) => ({ _tag: "Embedded", dataDir: dir }) satisfies Database.DatabaseConfig))

/**
 * Databases that outlive a server, to stop and start one on the same data: a PGlite data directory,
 * and a PostgreSQL database when `DATABASE_URL` is set. Each is removed when the scope closes.
 */
export const durableTestDatabases = () => {
  const url = process.env.DATABASE_URL
  return [
    { name: "pglite" as const, create: createDataDir },
    ...(url === undefined || url === "" ? [] : [{ name: "postgres" as const, create: createPostgres(url) }])
  ]
}

const pglite: TestDatabase = { name: "pglite", layer: Database.layer({ _tag: "Embedded", dataDir: undefined }) }

/** PGlite always; PostgreSQL as well when `DATABASE_URL` is set (as in CI). */
export const testDatabases = (): ReadonlyArray<TestDatabase> => {
  const url = process.env.DATABASE_URL
  return url === undefined || url === "" ? [pglite] : [pglite, postgres(url)]
}
