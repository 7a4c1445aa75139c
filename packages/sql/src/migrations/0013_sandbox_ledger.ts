import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The sandbox PSP's own tables (`sandbox_*`), kept apart from the orchestrator's as a real PSP keeps
 * its own database. The sandbox used to create them itself at start; every statement is IF NOT EXISTS
 * so a database that already has them (from that older start-up) migrates without a change.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
create table if not exists sandbox_charges (
  id text primary key,
  connection_id text not null,
  reference text not null,
  merchant_reference text not null,
  amount bigint not null,
  currency text not null,
  token text not null,
  capture boolean not null,
  status text not null,
  amount_captured bigint not null,
  amount_refunded bigint not null check (amount_refunded <= amount_captured),
  capture_reference text,
  failure_code text,
  failure_message text,
  return_url text not null,
  created_at_millis bigint not null,
  unique (connection_id, reference)
);
create index if not exists sandbox_charges_by_merchant_reference on sandbox_charges (merchant_reference);
create table if not exists sandbox_refunds (
  id text primary key,
  connection_id text not null,
  reference text not null,
  charge_id text not null,
  amount bigint not null,
  status text not null,
  failure_code text,
  failure_message text,
  created_at_millis bigint not null,
  unique (connection_id, reference)
);
alter table sandbox_refunds add column if not exists settle_at_millis bigint;
create table if not exists sandbox_notifications (
  id text primary key,
  connection_id text not null,
  payload text not null,
  created_at_millis bigint not null,
  sent_at_millis bigint,
  lease_until_millis bigint not null default 0
);
create index if not exists sandbox_notifications_unsent on sandbox_notifications (created_at_millis)
  where sent_at_millis is null;
create table if not exists sandbox_subscriptions (
  id text primary key,
  connection_id text not null,
  reference text not null,
  state text not null,
  next_run_at_millis bigint,
  version integer not null,
  unique (connection_id, reference)
);
create index if not exists sandbox_subscriptions_due on sandbox_subscriptions (next_run_at_millis)
  where next_run_at_millis is not null;
`).unprepared
})
