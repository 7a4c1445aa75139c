import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Webhook endpoints (their signing secrets sealed), deliveries as their own durable queue (a
 * pending delivery is due at `next_attempt_at`, claimed with a lease) and every attempt's record.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
create table webhook_endpoints (
  id text primary key,
  organization_id text not null references organizations (id),
  livemode boolean not null,
  url text not null,
  description text,
  enabled_events jsonb not null,
  status text not null check (status in ('active', 'disabled')),
  secret_sealed text not null,
  previous_secret_sealed text,
  previous_secret_expires_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index webhook_endpoints_by_tenant on webhook_endpoints (organization_id, livemode, created_at desc, id desc);

create table webhook_deliveries (
  id text primary key,
  organization_id text not null references organizations (id),
  livemode boolean not null,
  event_id text not null,
  endpoint_id text not null references webhook_endpoints (id) on delete cascade,
  type text not null,
  status text not null check (status in ('pending', 'succeeded', 'exhausted')),
  attempt_count integer not null default 0,
  last_response_status integer,
  last_error text,
  next_attempt_at timestamptz,
  delivered_at timestamptz,
  payload text not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  lease_until timestamptz,
  lease_token text,
  unique (event_id, endpoint_id)
);
create index webhook_deliveries_by_tenant on webhook_deliveries (organization_id, livemode, created_at desc, id desc);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_by_endpoint on webhook_deliveries (endpoint_id);

create table webhook_delivery_attempts (
  id text primary key,
  delivery_id text not null references webhook_deliveries (id) on delete cascade,
  attempted_at timestamptz not null,
  response_status integer,
  error text,
  duration_ms integer not null,
  response_body text
);
create index webhook_delivery_attempts_by_delivery on webhook_delivery_attempts (delivery_id, attempted_at);

create index events_by_type on events (organization_id, livemode, type, created_at desc, id desc);
`).unprepared
})
