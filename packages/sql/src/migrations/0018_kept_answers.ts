import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Idempotency keys keep their answer as the core renders it: what it was (`answer_outcome`:
 * `succeeded`, or `failed:<kind>:<tag>`) beside its text (`response_body`), rather than the HTTP
 * status it left with. Answers kept before this (`response_status`) are replayed as they were until
 * they are purged, 24 hours on.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`alter table idempotency_keys add column if not exists answer_outcome text;`).unprepared
})
