import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * A test clock's advance as a row lock any process respects: the target it is moving to and the
 * lease of the process running it. A live lease makes every other advance answer 409 and keeps the
 * worker off the clock's subscriptions; a lapsed one (its process died) lets the next advance take over.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
alter table test_clocks
  add column advance_to timestamptz,
  add column lease_until timestamptz,
  add column lease_token text;
`).unprepared
})
