import { expect, layer } from "@effect/vitest"
import { PgliteClient, runMigrations } from "@orchestrator/sql"
import { Context, Effect, Layer } from "effect"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

/** Every statement the service sends to its embedded database, as text. */
const statements: Array<string> = []

/** PGlite in memory, migrated, whose every statement is noted in `statements`. */
const countedDatabase = Layer.effectDiscard(runMigrations).pipe(
  Layer.provideMerge(PgliteClient.layer({ dataDir: undefined })),
  Layer.tap((context) =>
    Effect.sync(() => {
      const database = Context.get(context, PgliteClient.PgliteDatabase)
      const query = database.query.bind(database)
      database.query = ((text, ...rest) => {
        statements.push(text)
        return query(text, ...rest)
      }) as typeof database.query
    })
  )
)

/** What changes rows, and so is a payment's own: reads come from caches that may refresh at any time. */
const writes = (texts: ReadonlyArray<string>) => texts.filter((text) => !/^\s*select\b/i.test(text))

/**
 * A payment costs the database what its guarantees need and no more (the pgbench script of
 * `pnpm bench` does the same): the key with the payment, the PSP's charge, the outcome with the key's
 * answer. A guard against a write that slips in, not a measure of speed.
 */
layer(serverLayer(countedDatabase, { rawCardData: () => true }), { excludeTestServices: true, timeout: "120 seconds" })("statements of a payment", (it) => {
  it.effect("a card payment under an Idempotency-Key is three writes: its key rides with the payment's own", () =>
    Effect.gen(function*() {
      const { baseUrl, secret } = yield* merchant()
      const pay = (key: string) => raw(`${baseUrl}/v1/payments`, { method: "POST", headers: json(secret, key), body: JSON.stringify(paymentWith("tok_visa")) })
      expect((yield* pay(newKey())).status).toBe(201)

      statements.length = 0
      const key = newKey()
      const paid = yield* pay(key)
      expect([paid.status, paid.json.status]).toEqual([201, "succeeded"])
      const written = writes(statements)
      expect(written).toHaveLength(3)
      expect(written[0]).toMatch(/insert into idempotency_keys/)
      expect(written[0]).toMatch(/insert into payments/)
      expect(written[1]).toMatch(/sandbox_charges/)
      expect(written[2]).toMatch(/update payments/)
      expect(written[2]).toMatch(/update idempotency_keys/)

      // The key kept exactly that answer; a replay finds it with the claim that met it and one read.
      statements.length = 0
      const replay = yield* pay(key)
      expect([replay.headers.get("idempotent-replayed"), replay.text]).toEqual(["true", paid.text])
      expect(statements.filter((text) => /idempotency_keys/.test(text))).toHaveLength(2)
      expect(writes(statements).filter((text) => !/insert into idempotency_keys/.test(text))).toEqual([])
    }))
  it.effect("a vaulted card costs no statement more: the payment's creation reads the card and logs the access", () =>
    Effect.gen(function*() {
      const { baseUrl, secret } = yield* merchant()
      const vaulted = yield* raw(`${baseUrl}/v1/payment_methods`, {
        method: "POST",
        headers: json(secret),
        body: JSON.stringify({ type: "card", card: { number: "4242424242424242", exp_month: 12, exp_year: new Date().getUTCFullYear() + 2 } })
      })
      expect(vaulted.status).toBe(201)

      const pay = () => raw(`${baseUrl}/v1/payments`, { method: "POST", headers: json(secret, newKey()), body: JSON.stringify(paymentWith(vaulted.json.id)) })

      statements.length = 0
      const paid = yield* pay()
      expect([paid.status, paid.json.status]).toEqual([201, "succeeded"])
      const vault = statements.filter((text) => /vault\./.test(text))
      expect(vault).toHaveLength(1)
      expect(vault[0]).toMatch(/vault\.card_for_access/)
      expect(vault[0]).toMatch(/insert into payments/)
      expect(writes(statements)).toHaveLength(3)

      // A second payment of the card: the same, its own access recorded by its own creation.
      statements.length = 0
      const again = yield* pay()
      expect([again.status, again.json.status]).toEqual([201, "succeeded"])
      expect(writes(statements)).toHaveLength(3)
      const accesses = yield* raw(`${baseUrl}/v1/payment_methods/${vaulted.json.id}/accesses`, { headers: json(secret) })
      expect(accesses.json.data.map((access: { payment_id: string }) => access.payment_id)).toEqual([again.json.id, paid.json.id])
    }))
})
