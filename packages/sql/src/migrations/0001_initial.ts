import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Organizations, unique by name. */
const ORGANIZATIONS = `
create table organizations (
  id text primary key,
  name text not null,
  default_provider_test text,
  default_provider_live text,
  created_at timestamptz not null
);
create unique index organizations_by_name on organizations (name);
`

/** Secret API keys, by their keyed hash. */
const API_KEYS = `
create table api_keys (
  id text primary key,
  organization_id text not null references organizations (id),
  livemode boolean not null,
  key_hash text not null unique,
  hint text not null,
  created_at timestamptz not null,
  revoked_at timestamptz
);
create index api_keys_by_organization on api_keys (organization_id);
`

/** Each organization's PSP accounts, per mode. */
const PROVIDER_CONNECTIONS = `
create table provider_connections (
  id text primary key,
  organization_id text not null references organizations (id),
  livemode boolean not null,
  name text not null,
  type text not null,
  status text not null check (status in ('active', 'error', 'disabled')),
  last_error text,
  supported_currencies jsonb,
  supported_methods jsonb,
  settings jsonb not null default '{}',
  credentials_encrypted text,
  webhook_secret_encrypted text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  unique (organization_id, livemode, name)
);
`

/** Payments, with the amount invariants as CHECKs. */
const PAYMENTS = `
create table payments (
  id text primary key,
  organization_id text not null references organizations (id),
  livemode boolean not null,
  status text not null check (status in
    ('created', 'processing', 'requires_action', 'requires_capture', 'succeeded', 'failed', 'canceled')),
  amount bigint not null check (amount between 1 and 99999999),
  amount_captured bigint not null check (amount_captured between 0 and amount),
  amount_refunded bigint not null check (amount_refunded between 0 and amount_captured),
  currency text not null,
  provider text not null,
  provider_payment_id text,
  payment_method jsonb not null,
  customer_id text,
  description text,
  metadata jsonb not null,
  capture boolean not null,
  return_url text,
  next_action jsonb,
  failure jsonb,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  reconcile_lease_until timestamptz
);
create index payments_by_tenant on payments (organization_id, livemode, created_at desc, id desc);
create index payments_open on payments (status, updated_at)
  where status in ('processing', 'requires_action', 'requires_capture');
`

/** Each call of a payment to a PSP. */
const PAYMENT_ATTEMPTS = `
create table payment_attempts (
  id text primary key,
  payment_id text not null references payments (id),
  position integer not null,
  provider text not null,
  status text not null,
  provider_payment_id text,
  error_code text,
  latency_ms integer,
  created_at timestamptz not null,
  unique (payment_id, position)
);
create index payment_attempts_pending on payment_attempts (created_at) where status = 'pending';
`

/** Refunds of payments. */
const REFUNDS = `
create table refunds (
  id text primary key,
  organization_id text not null references organizations (id),
  livemode boolean not null,
  payment_id text not null references payments (id),
  amount bigint not null check (amount between 1 and 99999999),
  currency text not null,
  status text not null check (status in ('pending', 'succeeded', 'failed')),
  reason text,
  provider_refund_id text,
  failure jsonb,
  metadata jsonb not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  reconcile_lease_until timestamptz
);
create index refunds_by_tenant on refunds (organization_id, livemode, created_at desc, id desc);
create index refunds_by_payment on refunds (payment_id);
create index refunds_pending on refunds (created_at) where status = 'pending';
`

/** The events of every change. */
const EVENTS = `
create table events (
  id text primary key,
  organization_id text not null references organizations (id),
  livemode boolean not null,
  type text not null,
  api_version text not null,
  data jsonb not null,
  created_at timestamptz not null
);
create index events_by_tenant on events (organization_id, livemode, created_at desc, id desc);
`

/** Requests' Idempotency-Keys and the responses they replay. */
const IDEMPOTENCY_KEYS = `
create table idempotency_keys (
  organization_id text not null,
  livemode boolean not null,
  key text not null,
  fingerprint text not null,
  resource_id text,
  response_status integer,
  response_body text,
  locked_until timestamptz,
  lock_token text,
  created_at timestamptz not null,
  primary key (organization_id, livemode, key)
);
create index idempotency_keys_by_age on idempotency_keys (created_at);
`

/**
 * The first schema. Money is `bigint` minor units with the payment invariants as CHECKs, so even a
 * bug above cannot store a refund larger than the capture. Lists read `(created_at, id)` newest first.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  for (const step of [ORGANIZATIONS, API_KEYS, PROVIDER_CONNECTIONS, PAYMENTS, PAYMENT_ATTEMPTS, REFUNDS, EVENTS, IDEMPOTENCY_KEYS]) {
    yield* sql.unsafe(step).unprepared
  }
})
