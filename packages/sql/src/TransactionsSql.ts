import { SqlClient } from "@effect/sql"
import { Transactions } from "@orchestrator/core"
import { Effect, Layer } from "effect"

/** `Transactions` as database transactions; nested calls become savepoints. */
export const TransactionsSql = Layer.effect(
  Transactions,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    run: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      sql.withTransaction(effect).pipe(Effect.catchTag("SqlError", (error) => Effect.die(error))) as Effect.Effect<A, E, R>
  }))
)
