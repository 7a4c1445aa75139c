import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Provider connections gain their circuit breaker (in the database, so every process sees it), an
 * optional base URL and soft deletion; organizations choose per mode how payments are routed;
 * routing rules; how each payment's provider was chosen; and the PSPs' own webhooks, stored as they
 * arrive and applied by the worker.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
alter table provider_connections add column base_url text;
alter table provider_connections add column deleted_at timestamptz;
alter table provider_connections add column consecutive_failures integer not null default 0;
alter table provider_connections add column circuit_retry_at timestamptz;
alter table provider_connections add column trial_until timestamptz;

alter table organizations add column payments_routing_test text not null default 'default'
  check (payments_routing_test in ('default', 'rules'));
alter table organizations add column payments_routing_live text not null default 'default'
  check (payments_routing_live in ('default', 'rules'));

create table routing_rules (
  id text primary key,
  organization_id text not null references organizations (id),
  livemode boolean not null,
  priority integer not null,
  conditions jsonb not null,
  action jsonb not null,
  enabled boolean not null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index routing_rules_by_tenant on routing_rules (organization_id, livemode, priority, created_at, id);

alter table payments add column routing jsonb not null default '{"strategy": "default", "rule_id": null}';

create table provider_events (
  id text primary key,
  connection_id text not null references provider_connections (id),
  organization_id text not null references organizations (id),
  livemode boolean not null,
  psp_event_id text not null,
  event jsonb not null,
  received_at timestamptz not null,
  applied_at timestamptz,
  outcome text,
  lease_until timestamptz,
  lease_token text,
  unique (connection_id, psp_event_id)
);
create index provider_events_unapplied on provider_events (received_at) where applied_at is null;
`).unprepared
})
