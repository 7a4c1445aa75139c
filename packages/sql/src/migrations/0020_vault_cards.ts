import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The card vault's own schema (`packages/vault`; nothing else reads it). A card's number and name
 * are only in `ciphertext`, under the card's data key, which `wrapped_key` holds wrapped by the key
 * of `key_version`; the other columns are what may be shown. No security code is ever stored.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
create schema if not exists vault;
create table vault.cards (
  id text primary key,
  organization_id text not null,
  livemode boolean not null,
  key_version integer not null,
  wrapped_key text not null,
  ciphertext text not null,
  brand text not null,
  last4 text not null,
  exp_month integer not null,
  exp_year integer not null,
  country text,
  funding text not null,
  fingerprint text not null,
  network_transaction_id text,
  created_at timestamptz not null
);
create index cards_by_fingerprint on vault.cards (organization_id, fingerprint);
create index cards_by_key_version on vault.cards (key_version);
`).unprepared
})
