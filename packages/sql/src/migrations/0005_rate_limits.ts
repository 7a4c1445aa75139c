import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** An organization's own rate limit per API key in each mode; null takes the service's default. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
alter table organizations add column rate_limit_test integer check (rate_limit_test > 0);
alter table organizations add column rate_limit_live integer check (rate_limit_live > 0);
`).unprepared
})
