import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { testDatabases } from "@orchestrator/testing"
import { Deferred, Effect, Fiber, Layer, type Tracer } from "effect"
import { untraced } from "../src/shared/Untraced.js"

/** A tracer that keeps the names of the spans it is asked to make. */
const namingTracer = (names: Array<string>) =>
  Layer.setTracer(
    Effect.runSync(Effect.map(Effect.tracer, (native) =>
      ({
        ...native,
        span: (name: string, ...rest: Array<any>) => {
          names.push(name)
          return (native.span as any)(name, ...rest) as Tracer.Span
        }
      }) as Tracer.Tracer))
  )

for (const database of testDatabases()) {
  describe(`statements without @effect/sql's span on ${database.name}`, () => {
    const table = (sql: SqlClient.SqlClient, name: string) => sql.unsafe(`create table if not exists ${name} (id text primary key)`)

    it.scoped("run inside the open transaction: a rollback takes their writes back", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* table(sql, "untraced_rollback")
        const failed = yield* Effect.flip(
          sql.withTransaction(Effect.gen(function*() {
            yield* untraced(sql`insert into untraced_rollback (id) values (${"a"})`)
            // Seen inside the transaction that wrote it.
            expect(yield* untraced(sql<{ id: string }>`select id from untraced_rollback`)).toEqual([{ id: "a" }])
            return yield* Effect.fail("abandoned" as const)
          })).pipe(Effect.withTracerEnabled(false))
        )
        expect(failed).toBe("abandoned")
        expect(yield* sql`select id from untraced_rollback`).toEqual([])
      }).pipe(Effect.provide(database.layer)))

    it.scoped("outside a transaction never run in another's session: they wait for it to end", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* table(sql, "untraced_isolation")
        const written = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const writer = yield* Effect.fork(sql.withTransaction(Effect.gen(function*() {
          yield* sql`insert into untraced_isolation (id) values (${"uncommitted"})`
          yield* Deferred.succeed(written, undefined)
          yield* Deferred.await(release)
          return yield* Effect.fail("rolled back" as const)
        })))
        yield* Deferred.await(written)
        const reader = yield* Effect.fork(untraced(sql<{ id: string }>`select id from untraced_isolation`).pipe(Effect.withTracerEnabled(false)))
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.await(writer)
        // PGlite's one session: the read waited for the permit; PostgreSQL: another connection. Neither saw the row.
        expect(yield* Fiber.join(reader)).toEqual([])
      }).pipe(Effect.provide(database.layer)))

    it.scoped("with tracing on run as the library does, with their span", () =>
      Effect.gen(function*() {
        const names: Array<string> = []
        const sql = yield* SqlClient.SqlClient
        const rows = yield* untraced(sql<{ one: number }>`select 1 as one where 1 = ${1}`).pipe(Effect.provide(namingTracer(names)))
        expect(rows).toEqual([{ one: 1 }])
        expect(names).toContain("sql.execute")
        names.length = 0
        yield* untraced(sql`select 1 where 1 = ${1}`).pipe(Effect.withTracerEnabled(false), Effect.provide(namingTracer(names)))
        expect(names).toEqual([])
      }).pipe(Effect.provide(database.layer)))
  })
}
