import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Checkout client secrets are no longer stored: each is made from the session's id with a key derived
 * from the master secret (`ClientSecrets.ts`). Sessions made before keep working with the random
 * secret they were given, by its SHA-256 (a migration has no key material; over 160 random bits an
 * unkeyed hash guesses nothing), and the plaintext goes.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
alter table checkout_sessions add column legacy_client_secret_sha256 text;
update checkout_sessions
  set legacy_client_secret_sha256 = encode(sha256(convert_to(client_secret, 'UTF8')), 'hex');
alter table checkout_sessions drop column client_secret;
`).unprepared
})
