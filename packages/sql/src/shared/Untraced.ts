import { type SqlConnection, type SqlError, Statement } from "@effect/sql"
import { Effect, FiberRef, Option } from "effect"

/** What a statement made by `sql\`…\`` holds besides its text: how it gets its connection (the transaction's, else the client's). */
interface Runnable {
  readonly acquirer?: Effect.Effect<SqlConnection.Connection, SqlError.SqlError>
  readonly transformRows?: (<B extends object>(rows: ReadonlyArray<B>) => ReadonlyArray<B>) | undefined
}

/**
 * `statement` as @effect/sql runs it, less what only a tracer reads. For every statement the library
 * makes and ends a `sql.execute` span (a no-op one when tracing is off) and a scope for its
 * connection: 68 runtime operations a statement on PostgreSQL (counted with an op supervisor), where
 * running it takes twenty. With tracing off (no OTLP endpoint) this runs the same text on the same
 * connection (the open transaction's, else the client's) without them; with tracing on, or a
 * statement transformer set, the statement runs as it is, so traces stay the same.
 *
 * Both clients' connections need no scope outside a transaction: PostgreSQL's pool checks one out
 * per statement, and PGlite's takes its permit per statement (`PgliteClient.ts`).
 */
export const untraced = <A extends object>(statement: Statement.Statement<A>): Effect.Effect<ReadonlyArray<A>, SqlError.SqlError> =>
  Effect.withFiberRuntime((fiber) => {
    const { acquirer, transformRows } = statement as unknown as Runnable
    if (
      acquirer === undefined || fiber.getFiberRef(FiberRef.currentTracerEnabled) ||
      Option.isSome(fiber.getFiberRef(Statement.currentTransformer))
    ) {
      return statement
    }
    const [text, params] = statement.compile()
    return Effect.flatMap(acquirer, (connection) => connection.execute(text, params, transformRows) as Effect.Effect<ReadonlyArray<A>, SqlError.SqlError>)
  })
