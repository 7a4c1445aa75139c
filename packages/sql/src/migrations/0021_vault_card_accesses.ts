import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Every decryption of a card (PCI DSS 10.2): append-only, so a trigger refuses any update or delete.
 * It outlives the card: a deleted card's accesses stay.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
create table vault.card_accesses (
  seq bigserial primary key,
  card_id text not null,
  organization_id text not null,
  livemode boolean not null,
  purpose text not null,
  payment_id text,
  connection text,
  at timestamptz not null
);
create index card_accesses_by_card on vault.card_accesses (organization_id, card_id, seq);
create function vault.refuse_change() returns trigger language plpgsql as $$
begin
  raise exception 'vault.card_accesses is append-only';
end
$$;
create trigger card_accesses_append_only before update or delete on vault.card_accesses
  for each row execute function vault.refuse_change();
create trigger card_accesses_not_emptied before truncate on vault.card_accesses
  for each statement execute function vault.refuse_change();
`).unprepared
})
