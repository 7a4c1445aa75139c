import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Each delivery knows the object its event is about and the event's place in the outbox's order
 * (`event_created_at`, `event_id`), so a delivery is first attempted only once every earlier event of
 * that object has had its first attempt at the same endpoint. The partial index covers exactly the
 * deliveries that hold later ones back: pending, never attempted.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
alter table webhook_deliveries add column object_id text;
alter table webhook_deliveries add column event_created_at timestamptz;
update webhook_deliveries d set object_id = e.data->'object'->>'id', event_created_at = e.created_at
  from events e where e.id = d.event_id;
update webhook_deliveries set event_created_at = created_at where event_created_at is null;
alter table webhook_deliveries alter column event_created_at set not null;
create index webhook_deliveries_first_attempts on webhook_deliveries (endpoint_id, object_id, event_created_at, event_id)
  where status = 'pending' and attempt_count = 0;
`).unprepared
})
