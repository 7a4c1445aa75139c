import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** When a connection's latest failed call failed, shown beside its `last_error`; null while it is healthy. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`alter table provider_connections add column last_error_at timestamptz;`).unprepared
})
