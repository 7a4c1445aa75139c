import { SqlClient } from "@effect/sql"
import { Transactions } from "@orchestrator/core/ports/Transactions"
import { Effect, Layer } from "effect"
import { EventsRepositorySql } from "./repositories/EventsRepositorySql.js"
import { IdempotencyKeysRepositorySql } from "./repositories/IdempotencyKeysRepositorySql.js"
import { PaymentsRepositorySql } from "./repositories/PaymentsRepositorySql.js"
import { ProviderConnectionsRepositorySql } from "./repositories/ProviderConnectionsRepositorySql.js"
import { RefundsRepositorySql } from "./repositories/RefundsRepositorySql.js"
import { SandboxLedgerSql } from "./repositories/SandboxLedgerSql.js"
import { ApiKeysRepositorySql, OrganizationsRepositorySql } from "./repositories/TenancyRepositoriesSql.js"

/** `Transactions` as database transactions; nested calls become savepoints. */
export const TransactionsSql = Layer.effect(
  Transactions,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    run: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      sql.withTransaction(effect).pipe(Effect.catchTag("SqlError", (error) => Effect.die(error))) as Effect.Effect<A, E, R>
  }))
)

/** Every storage port of the core, and the sandbox PSP's ledger, over one `SqlClient`. */
export const StorageSql = Layer.mergeAll(
  TransactionsSql,
  OrganizationsRepositorySql,
  ApiKeysRepositorySql,
  ProviderConnectionsRepositorySql,
  PaymentsRepositorySql,
  RefundsRepositorySql,
  EventsRepositorySql,
  IdempotencyKeysRepositorySql,
  SandboxLedgerSql
)
