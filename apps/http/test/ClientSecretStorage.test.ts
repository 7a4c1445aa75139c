import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { checkoutSecretDigests, Database } from "@orchestrator/sql"
import { durableTestDatabases } from "@orchestrator/testing"
import { Effect, Layer } from "effect"
import { createHash } from "node:crypto"
import { checkoutSetup } from "./support/CheckoutFixtures.js"
import { serverLayer } from "./support/TestServer.js"

/** Every text cell of the table, to look for a secret in it. */
const storedText = (sql: SqlClient.SqlClient) => Effect.map(sql`select * from checkout_sessions`, (rows) => JSON.stringify(rows))

describe("checkout client secrets at rest", () => {
  for (const database of durableTestDatabases()) {
    it.live(`no secret is stored; a session made before migration 0008 keeps its secret through it (${database.name})`, () =>
      Effect.gen(function*() {
        const config = yield* database.create
        const server = serverLayer(Database.layer(config))
        const direct = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
          Effect.scoped(effect.pipe(Effect.provide(Layer.fresh(Database.clientLayer(config)))))

        const first = yield* Effect.scoped(
          Effect.gen(function*() {
            const setup = yield* checkoutSetup()
            expect(setup.created.status).toBe(201)
            return { session: setup.session }
          }).pipe(Effect.provide(Layer.fresh(server)))
        )
        const derived: string = first.session.client_secret

        // The secret shown at creation is nowhere in the table.
        expect(yield* direct(Effect.flatMap(SqlClient.SqlClient, storedText))).not.toContain(derived.split("_secret_")[1])

        // Put the table back as 0007 left it, with a random secret in plain text, as a session made by
        // the previous build would be; then apply 0008 to it again.
        const legacy = `${first.session.id}_secret_ABCDEFGHJKMNPQRSTVWXYZ0123456789`
        yield* direct(Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql.unsafe(`alter table checkout_sessions drop column legacy_client_secret_sha256`)
          yield* sql.unsafe(`alter table checkout_sessions add column client_secret text`)
          yield* sql`update checkout_sessions set client_secret = ${legacy} where id = ${first.session.id}`
          yield* sql.unsafe(`alter table checkout_sessions alter column client_secret set not null`)
          yield* checkoutSecretDigests
        }))

        // After 0008: the old secret and the derived one both open the session.
        yield* Effect.scoped(
          Effect.gen(function*() {
            const { browser } = yield* checkoutSetup()
            const path = `/v1/checkout/sessions/${first.session.id}`
            const byOld = yield* browser(path, { clientSecret: legacy })
            const byDerived = yield* browser(path, { clientSecret: derived, via: "query" })
            expect([byOld.status, byDerived.status]).toEqual([200, 200])
            expect(byOld.json.id).toBe(first.session.id)
            const nearMiss = yield* browser(path, { clientSecret: `${legacy.slice(0, -1)}8` })
            expect([nearMiss.status, nearMiss.json.error.type]).toEqual([401, "authentication_error"])
          }).pipe(Effect.provide(Layer.fresh(server)))
        )

        // Migration 0008 converted the row: the plaintext column is gone, its SHA-256 is kept.
        yield* direct(Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const columns = yield* sql<{ column_name: string }>`select column_name from information_schema.columns
            where table_name = 'checkout_sessions'`
          expect(columns.map((column) => column.column_name)).not.toContain("client_secret")
          const [row] = yield* sql<{ legacy_client_secret_sha256: string }>`select legacy_client_secret_sha256
            from checkout_sessions where id = ${first.session.id}`
          expect(row!.legacy_client_secret_sha256).toBe(createHash("sha256").update(legacy).digest("hex"))
          expect(yield* storedText(sql)).not.toContain("ABCDEFGHJKMNPQRSTVWXYZ0123456789")
        }))
      }).pipe(Effect.scoped), 120_000)
  }
})
