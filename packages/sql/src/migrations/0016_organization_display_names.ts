import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** What shoppers are told the merchant is called in checkout, per mode; null: the organization's name. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`alter table organizations add column display_name_test text, add column display_name_live text;`).unprepared
})
