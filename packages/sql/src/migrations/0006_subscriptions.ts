import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Customers, plans, test clocks, subscriptions and invoices. Each row keeps the record as the core
 * defines it (`record`), with the columns that queries filter, order, join and lease by beside it.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
create table test_clocks (
  id text primary key,
  organization_id text not null references organizations (id),
  livemode boolean not null check (not livemode),
  frozen_time timestamptz not null,
  created_at timestamptz not null,
  record jsonb not null
);
create index test_clocks_list on test_clocks (organization_id, livemode, created_at desc, id desc);

create table customers (
  id text primary key,
  organization_id text not null references organizations (id),
  livemode boolean not null,
  email text,
  test_clock text,
  created_at timestamptz not null,
  record jsonb not null
);
create index customers_list on customers (organization_id, livemode, created_at desc, id desc);

create table plans (
  id text primary key,
  organization_id text not null references organizations (id),
  livemode boolean not null,
  amount bigint not null check (amount between 1 and 99999999),
  created_at timestamptz not null,
  record jsonb not null
);
create index plans_list on plans (organization_id, livemode, created_at desc, id desc);

create table subscriptions (
  id text primary key,
  organization_id text not null references organizations (id),
  livemode boolean not null,
  status text not null check (status in
    ('incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'unpaid', 'canceled')),
  customer_id text not null references customers (id),
  plan_id text not null references plans (id),
  test_clock text,
  next_run_at timestamptz,
  lease_until timestamptz,
  lease_token text,
  created_at timestamptz not null,
  record jsonb not null
);
create index subscriptions_list on subscriptions (organization_id, livemode, created_at desc, id desc);
create index subscriptions_due on subscriptions (next_run_at) where next_run_at is not null;
create index subscriptions_on_clock on subscriptions (test_clock, next_run_at) where test_clock is not null;

create table invoices (
  id text primary key,
  organization_id text not null references organizations (id),
  livemode boolean not null,
  subscription_id text not null references subscriptions (id) deferrable initially deferred,
  status text not null check (status in ('open', 'paid', 'void', 'uncollectible')),
  amount_due bigint not null check (amount_due between 1 and 99999999),
  amount_paid bigint not null check (amount_paid in (0, amount_due)),
  payment_id text references payments (id),
  created_at timestamptz not null,
  record jsonb not null
);
create index invoices_list on invoices (organization_id, livemode, created_at desc, id desc);
create index invoices_of_subscription on invoices (subscription_id, created_at desc, id desc);
create index invoices_by_payment on invoices (payment_id) where payment_id is not null;
`).unprepared
})
