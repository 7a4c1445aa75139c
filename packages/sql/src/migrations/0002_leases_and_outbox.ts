import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * One lease shape for every background job (`lease_until`, and `lease_token` to fence the holder),
 * and the events table as an outbox: `dispatched_at` is set once the event's consumers have it.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
alter table payments rename column reconcile_lease_until to lease_until;
alter table payments add column lease_token text;
alter table payments add column off_session boolean not null default false;
alter table refunds rename column reconcile_lease_until to lease_until;
alter table refunds add column lease_token text;

alter table events add column dispatched_at timestamptz;
alter table events add column lease_until timestamptz;
alter table events add column lease_token text;
-- Events written before the outbox existed had no consumers to reach.
update events set dispatched_at = created_at;
create index events_undispatched on events (created_at, id) where dispatched_at is null;
`).unprepared
})
