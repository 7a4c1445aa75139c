import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The vault's one read of a card for a PSP call, as a function of its schema: the access appended
 * (PCI DSS 10.2) and the sealed columns returned, in one call. The vault's own statement calls it,
 * and so does a payment's creation, so a vaulted payment costs no round trip of its own, and no
 * statement outside the vault reads `vault.cards` or writes `vault.card_accesses` by name.
 * PL/pgSQL, so each session plans the body once.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
create function vault.card_for_access(
  for_organization text, for_card text, in_livemode boolean, for_purpose text, for_payment text, on_connection text, at_time timestamptz
) returns table (key_version integer, wrapped_key text, ciphertext text, brand text, network_transaction_id text)
language plpgsql volatile as $$
begin
  return query
    with card as (
      select c.id, c.organization_id, c.livemode, c.key_version, c.wrapped_key, c.ciphertext, c.brand, c.network_transaction_id
        from vault.cards c
        where c.organization_id = for_organization and c.id = for_card and c.livemode = in_livemode
    ), logged as (
      insert into vault.card_accesses (card_id, organization_id, livemode, purpose, payment_id, connection, at)
        select card.id, card.organization_id, card.livemode, for_purpose, for_payment, on_connection, at_time from card
    )
    select card.key_version, card.wrapped_key, card.ciphertext, card.brand, card.network_transaction_id from card;
end
$$;
`).unprepared
})
