import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { makePkcs11Kek, SettingsConfig, vaultKeyProviderFor } from "@orchestrator/application"
import { softHsmToken, testDatabases } from "@orchestrator/testing"
import { ConfigProvider, Effect, Layer } from "effect"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

const VISA = "4242424242424242"
const year = new Date().getUTCFullYear() + 2
const PIN = "842613"

/**
 * The settings an operator gives a service on PostgreSQL with its keys in an HSM: the PKCS#11 module,
 * token and PIN, and no ORCHESTRATOR_VAULT_KEYS (the token's keys are the keys given).
 */
const operatorSettings = (token: { readonly module: string; readonly token: string }) =>
  Effect.runSync(Effect.withConfigProvider(
    SettingsConfig,
    ConfigProvider.fromMap(
      new Map([
        ["DATABASE_URL", "postgres://postgres@127.0.0.1:1/unused"],
        ["ORCHESTRATOR_VAULT_PKCS11_MODULE", token.module],
        ["ORCHESTRATOR_VAULT_PKCS11_TOKEN", token.token],
        ["ORCHESTRATOR_VAULT_PKCS11_PIN", PIN],
        ["ORCHESTRATOR_VAULT_FINGERPRINT_KEY", Buffer.alloc(32, 9).toString("base64")]
      ])
    )
  ))

const token = softHsmToken("orchestrator-e2e", PIN)
const settings = operatorSettings(token)
// Version 3, so the rows show the token's key wrapped them (a suite's own key would be version 1).
await Effect.runPromise(makePkcs11Kek(settings, 3))
// The vault's keys exactly as the service makes them from its settings: the token's session for the suite.
const keys = Layer.unwrapScoped(Effect.map(Effect.orDie(vaultKeyProviderFor(settings)), (vault) => vault.keys))

for (const database of testDatabases()) {
  layer(Layer.merge(serverLayer(database.layer, { rawCardData: () => true, vaultKeys: keys }), database.layer), {
    excludeTestServices: true,
    timeout: "180 seconds"
  })(
    `the card vault with its keys in a PKCS#11 token (SoftHSM) on ${database.name}`,
    (it) => {
      it.effect("vaults a card under the token's key and pays with its pm_ token on the sandbox", () =>
        Effect.gen(function*() {
          const account = yield* merchant()
          const call = (path: string, body?: object) =>
            raw(`${account.baseUrl}${path}`, {
              method: body === undefined ? "GET" : "POST",
              headers: json(account.secret, path === "/v1/payments" ? newKey() : undefined),
              ...(body === undefined ? {} : { body: JSON.stringify(body) })
            })
          const created = yield* call("/v1/payment_methods", { type: "card", card: { number: VISA, exp_month: 7, exp_year: year, cvc: "123" } })
          expect([created.status, created.json.card.last4]).toEqual([201, "4242"])
          const pm = created.json.id as string
          expect(pm).toMatch(/^pm_/)

          // The card's data key is wrapped by version 3, the token's KEK, and the row holds no card number.
          const sql = yield* SqlClient.SqlClient
          const rows = yield* sql<{ key_version: number }>`select * from vault.cards where id = ${pm}`
          expect(rows.map((row) => Number(row.key_version))).toEqual([3])
          expect(JSON.stringify(rows[0])).not.toContain(VISA)

          const paid = yield* call("/v1/payments", { amount: 2500, currency: "EUR", payment_method: { type: "card", token: pm } })
          expect([paid.status, paid.json.status]).toEqual([201, "succeeded"])
          expect(paid.json.payment_method).toMatchObject({ type: "card", token: pm })
          expect(paid.text).not.toContain(VISA)
          // Paid again without the security code (held for the first authorization only): the token still opens the card.
          const again = yield* call("/v1/payments", { amount: 700, currency: "EUR", payment_method: { type: "card", token: pm } })
          expect([again.status, again.json.status]).toEqual([201, "succeeded"])
        }))
    }
  )
}
