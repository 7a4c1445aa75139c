import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * What fair claims read (see `FairClaims.ts`): for every queue, its waiting rows by lane (the
 * organization, its mode, then the connection or the endpoint) in the claim's order, so the walk
 * over lanes is one index probe per lane and each lane's first due rows one range; and its rows in
 * flight (`lease_token` set) by lane, a small index the caps count in. The claim indexes these
 * replace are dropped: a payment's insert maintains as many indexes as before.
 *
 * A holder now clears `lease_token` when it has finished (the row may still wait out its lease):
 * tokens of leases that ran out before this version are cleared here so the in-flight indexes start
 * small. Webhook endpoints get their health: failures in a row, since when, the circuit, and the
 * attempts in flight they have earned by answering quickly.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
alter table webhook_endpoints add column if not exists failure_count integer not null default 0;
alter table webhook_endpoints add column if not exists failing_since timestamptz;
alter table webhook_endpoints add column if not exists circuit_open_until timestamptz;
alter table webhook_endpoints add column if not exists concurrency integer;

update webhook_deliveries set lease_token = null where lease_token is not null and lease_until < now();
update payments set lease_token = null where lease_token is not null and lease_until < now();
update refunds set lease_token = null where lease_token is not null and lease_until < now();
update events set lease_token = null where lease_token is not null and lease_until < now();
update provider_events set lease_token = null where lease_token is not null and lease_until < now();
update checkout_sessions set lease_token = null where lease_token is not null and lease_until < now();
update subscriptions set lease_token = null where lease_token is not null and lease_until < now();

create index webhook_deliveries_waiting_by_lane on webhook_deliveries
  (organization_id collate "C", livemode, endpoint_id collate "C", next_attempt_at, id) where status = 'pending';
create index webhook_deliveries_in_flight on webhook_deliveries
  (organization_id collate "C", livemode, endpoint_id collate "C") where lease_token is not null;

drop index if exists payments_open;
create index payments_unanswered_by_lane on payments
  (organization_id collate "C", livemode, provider collate "C", (coalesce(lease_until, '-infinity'::timestamptz)), updated_at)
  where status = 'processing';
create index payments_waiting_by_lane on payments
  (status, organization_id collate "C", livemode, provider collate "C", updated_at)
  where status in ('requires_action', 'requires_capture');
create index payments_in_flight on payments
  (organization_id collate "C", livemode, provider collate "C") where lease_token is not null;

drop index if exists refunds_pending;
create index refunds_pending_by_lane on refunds
  (organization_id collate "C", livemode, (coalesce(lease_until, '-infinity'::timestamptz)), created_at)
  where status = 'pending';
create index refunds_in_flight on refunds (organization_id collate "C", livemode) where lease_token is not null;

create index events_undispatched_by_lane on events (organization_id collate "C", livemode, created_at, id)
  where dispatched_at is null;

drop index if exists provider_events_unapplied;
create index provider_events_unapplied_by_lane on provider_events (organization_id collate "C", livemode, received_at, id)
  where applied_at is null;
create index provider_events_in_flight on provider_events (organization_id collate "C", livemode)
  where lease_token is not null;

drop index if exists checkout_sessions_expiring;
create index checkout_sessions_expiring_by_lane on checkout_sessions (organization_id collate "C", livemode, expires_at)
  where status in ('open', 'payment_failed');
create index checkout_sessions_in_flight on checkout_sessions (organization_id collate "C", livemode)
  where lease_token is not null;

drop index if exists subscriptions_due;
create index subscriptions_due_by_lane on subscriptions (organization_id collate "C", livemode, next_run_at, id)
  where next_run_at is not null and test_clock is null;
create index subscriptions_on_clock_by_lane on subscriptions (organization_id collate "C", livemode, next_run_at, id)
  where next_run_at is not null and test_clock is not null;
create index subscriptions_in_flight on subscriptions (organization_id collate "C", livemode)
  where lease_token is not null;
create index test_clocks_advancing_by_lane on test_clocks (organization_id collate "C", livemode, id)
  where advance_to is not null;
`).unprepared
})
