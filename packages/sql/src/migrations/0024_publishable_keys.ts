import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Publishable keys (`pk_test_…`, `pk_live_…`) live beside the secret ones, hashed the same way; the
 * kind says which endpoints a key opens. Every key stored before is a secret one.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(
    `alter table api_keys add column if not exists kind text not null default 'secret' check (kind in ('secret', 'publishable'));`
  ).unprepared
})
