import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Disputes (`dp_`): each kept whole in `record` (jsonb, like the billing tables), with the columns
 * lists, the PSP's news and the deadline warnings query beside it. One dispute per PSP dispute id on a
 * connection, so the same news delivered twice, or read back, finds it. A payment counts what its
 * disputes hold back (`amount_disputed`) and whether it was ever disputed.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
alter table payments add column if not exists amount_disputed bigint not null default 0 check (amount_disputed >= 0);
alter table payments add column if not exists disputed boolean not null default false;

create table if not exists disputes (
  id text primary key,
  organization_id text not null references organizations (id),
  livemode boolean not null,
  payment_id text not null references payments (id),
  provider text not null,
  provider_dispute_id text not null,
  status text not null check (status in
    ('needs_response', 'under_review', 'won', 'lost', 'accepted', 'expired', 'warning_closed')),
  evidence_due_by timestamptz,
  record jsonb not null,
  created_at timestamptz not null
);
create unique index if not exists disputes_by_psp_id on disputes (organization_id, livemode, provider, provider_dispute_id);
create index if not exists disputes_by_tenant on disputes (organization_id, livemode, created_at desc, id desc);
create index if not exists disputes_by_payment on disputes (payment_id);
create index if not exists disputes_due on disputes (evidence_due_by) where status = 'needs_response';
`).unprepared
})
