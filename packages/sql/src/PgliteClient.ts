import * as Reactivity from "@effect/experimental/Reactivity"
import { makeCompiler } from "@effect/sql-pg/PgClient"
import * as SqlClient from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import { PGlite } from "@electric-sql/pglite"
import { Context, Effect, Layer, Stream } from "effect"

/** The embedded database itself, for what `SqlClient` cannot do (closing, cloning in tests). */
export class PgliteDatabase extends Context.Tag("sql/PgliteDatabase")<PgliteDatabase, PGlite>() {}

const failWith = (message: string) => (cause: unknown) => new SqlError({ cause, message })

/**
 * An `SqlClient` over PGlite, the embedded PostgreSQL. PGlite is one session, so a one-permit
 * semaphore serializes statements, and a transaction keeps the permit until it ends: two fibers
 * never interleave on the single connection. The compiler is the PostgreSQL one, so repositories
 * and migrations run unchanged here and on a real server.
 */
export const make = (database: PGlite) =>
  Effect.gen(function*() {
    const permit = yield* Effect.makeSemaphore(1)

    /**
     * The session's connection, each statement run through `guard`: as it is inside a transaction
     * (which holds the permit from its begin to its end), under the permit outside one. A statement
     * takes the permit for itself, with no scope to hold it: the statements that skip @effect/sql's
     * span and scope (`untraced`) run on this too.
     */
    const connectionOf = (guard: <A>(run: Effect.Effect<A, SqlError>) => Effect.Effect<A, SqlError>): Connection => {
      const query = (sql: string, params: ReadonlyArray<unknown>) =>
        guard(Effect.tryPromise({
          try: () => database.query<Record<string, unknown>>(sql, params as Array<unknown>),
          catch: failWith("Failed to execute statement")
        }))
      // The driver types rows as `any`; the statements' schemas decode them.
      /* eslint-disable @typescript-eslint/no-explicit-any */
      return {
        execute: (sql, params, transformRows) => Effect.map(query(sql, params), (result) => (transformRows ? transformRows(result.rows) : result.rows) as any),
        executeRaw: (sql, params) => query(sql, params),
        executeStream: (sql, params, transformRows) =>
          Stream.fromIterableEffect(
            Effect.map(query(sql, params), (result) => (transformRows ? transformRows(result.rows) : result.rows) as any)
          ),
        executeValues: (sql, params) =>
          guard(Effect.tryPromise({
            try: () => database.query<Array<unknown>>(sql, params as Array<unknown>, { rowMode: "array" }),
            catch: failWith("Failed to execute statement")
          })).pipe(Effect.map((result) => result.rows)),
        executeUnprepared: (sql, params, transformRows) =>
          params.length > 0
            ? Effect.map(query(sql, params), (result) => (transformRows ? transformRows(result.rows) : result.rows) as any)
            : guard(Effect.tryPromise({ try: () => database.exec(sql), catch: failWith("Failed to execute statement") })).pipe(
              Effect.map((results) => (results.at(-1)?.rows ?? []) as any)
            )
      }
      /* eslint-enable @typescript-eslint/no-explicit-any */
    }
    const inTransaction = connectionOf((run) => run)
    const alone = connectionOf(permit.withPermits(1))

    return yield* SqlClient.make({
      acquirer: Effect.succeed(alone),
      transactionAcquirer: Effect.acquireRelease(permit.take(1), () => permit.release(1)).pipe(Effect.as(inTransaction)),
      compiler: makeCompiler(),
      spanAttributes: [["db.system.name", "postgresql"], ["db.namespace", "pglite"]]
    })
  })

/** PGlite in `dataDir`, or in memory when it is undefined; closed when the layer is released. */
export const layer = (options: { readonly dataDir?: string | undefined }) =>
  Layer.scopedContext(
    Effect.gen(function*() {
      const database = yield* Effect.acquireRelease(
        Effect.tryPromise({
          try: () => PGlite.create(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
          catch: failWith(`Could not open the embedded database${options.dataDir ? ` in ${options.dataDir}` : ""}`)
        }),
        (database) => Effect.promise(() => database.close())
      )
      const client = yield* make(database)
      return Context.make(SqlClient.SqlClient, client).pipe(Context.add(PgliteDatabase, database))
    })
  ).pipe(Layer.provide(Reactivity.layer))

/** Wraps an already open PGlite (a test's clone); the caller closes it. */
export const layerFrom = (database: PGlite) =>
  Layer.effectContext(
    Effect.map(make(database), (client) => Context.make(SqlClient.SqlClient, client).pipe(Context.add(PgliteDatabase, database)))
  ).pipe(Layer.provide(Reactivity.layer))
