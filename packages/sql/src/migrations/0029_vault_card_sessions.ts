import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The checkout session a card was typed for (the card form under that session's client secret):
 * only that session may be confirmed with it, so a shopper never pays with a card of the merchant's.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
alter table vault.cards add column if not exists checkout_session_id text;
`).unprepared
})
