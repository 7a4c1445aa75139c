import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Checkout sessions. The client secret is kept so the server key can read it again (like the PSPs'
 * own sessions); browsers present it and it is compared in constant time. Open and failed sessions
 * are claimed by `expires_at` when their time is up.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
create table checkout_sessions (
  id text primary key,
  organization_id text not null references organizations (id),
  livemode boolean not null,
  status text not null
    check (status in ('open', 'processing', 'complete', 'payment_failed', 'cancelled', 'expired')),
  amount bigint not null check (amount > 0),
  currency text not null,
  client_secret text not null,
  ui jsonb not null,
  allowed_methods jsonb,
  success_url text not null,
  cancel_url text not null,
  return_url text,
  locale text,
  customer_email text,
  customer_id text,
  country text,
  excluded_providers jsonb not null,
  metadata jsonb not null,
  payment_id text references payments (id),
  payment_ids jsonb not null,
  expires_at timestamptz not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  lease_until timestamptz,
  lease_token text
);
create index checkout_sessions_by_tenant on checkout_sessions (organization_id, livemode, created_at desc, id desc);
create index checkout_sessions_expiring on checkout_sessions (expires_at)
  where status in ('open', 'payment_failed');
`).unprepared
})
