import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * What the deliveries' claim reads, so that a claim costs the same with one due delivery or a backlog
 * of a hundred thousand. The due deliveries in exactly the claim's order (`next_attempt_at, id`): it
 * stops after its batch instead of sorting every due delivery (a fan-out stamps hundreds with the
 * same `next_attempt_at`). And an object's undispatched events by the object: "is an earlier event of
 * this object still undispatched" is one probe, not a walk through every earlier event of the tenant
 * for each due delivery.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
drop index webhook_deliveries_due;
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at, id) where status = 'pending';
create index events_undispatched_by_object on events (organization_id, livemode, ((data->'object'->>'id')), created_at, id)
  where dispatched_at is null;
`).unprepared
})
