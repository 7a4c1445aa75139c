import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The request that caused an event (its `req_…` id and, when it was traced, the W3C `traceparent`
 * of its server span), kept beside the event and copied to its webhook deliveries, which outlive the
 * event (purged once dispatched): a delivery attempt's span links to the request. Never in an API
 * response. Numbered 0015: 0014 is taken by another change.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
alter table events add column if not exists request_id text;
alter table events add column if not exists trace_parent text;
alter table webhook_deliveries add column if not exists request_id text;
alter table webhook_deliveries add column if not exists trace_parent text;
`).unprepared
})
