import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Attempts whose outcome is unknown (no answer by the deadline) are reconciled like pending ones,
 * so the partial index of unanswered attempts covers both. `provider_message` keeps the first KiB
 * of what the PSP said about an attempt, for operators only: the API never shows it.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
alter table payment_attempts add column provider_message text;
drop index payment_attempts_pending;
create index payment_attempts_unanswered on payment_attempts (created_at) where status in ('pending', 'unknown');
`).unprepared
})
