import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * When the worker last read a dispute from its PSP (reconciliation of a dispute whose outcome is
 * late): kept beside the record, not in it, since it is the service's schedule and not the dispute's
 * news. The disputes waiting for an outcome are the few under review.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
alter table disputes add column if not exists provider_read_at timestamptz;
create index if not exists disputes_awaiting_outcome on disputes (created_at) where status = 'under_review';
`).unprepared
})
