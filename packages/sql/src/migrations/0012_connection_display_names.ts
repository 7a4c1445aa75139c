import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** What shoppers are told a connection is called; null: "the payment provider", never its name. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`alter table provider_connections add column display_name text;`).unprepared
})
