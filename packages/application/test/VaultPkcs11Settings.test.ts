import { softHsmToken } from "@orchestrator/testing"
import { ConfigProvider, Effect, Either, Layer, Option, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { applicationFor } from "../src/service/Service.js"
import { makePkcs11Kek } from "../src/service/VaultKeyProvider.js"
import { describeConfigError, SettingsConfig } from "../src/settings/Settings.js"

const read = (env: Record<string, string>) =>
  Effect.runSync(Effect.either(Effect.withConfigProvider(SettingsConfig, ConfigProvider.fromMap(new Map(Object.entries(env))))))

const onPostgres = (token: { readonly module: string; readonly token: string }, pin: string, extra: Record<string, string> = {}) => ({
  // Refused or started before the database is touched: the address below need not answer.
  DATABASE_URL: "postgres://postgres@127.0.0.1:1/none",
  ORCHESTRATOR_VAULT_PKCS11_MODULE: token.module,
  ORCHESTRATOR_VAULT_PKCS11_TOKEN: token.token,
  ORCHESTRATOR_VAULT_PKCS11_PIN: pin,
  ...extra
})

/** Why the service would not start with `env`, in the line it prints (or undefined if it would). */
const refusal = async (env: Record<string, string>) => {
  const settings = Either.getOrThrow(read(env))
  const started = await Effect.runPromise(Effect.either(Effect.scoped(Layer.build(applicationFor(settings)))))
  return Either.isLeft(started) ? String((started.left as Error).message) : undefined
}

describe("the card vault's keys in a PKCS#11 token", () => {
  it("reads the module, token, PIN (redacted) and key label; a module without token or PIN is a configuration error", () => {
    const settings = Either.getOrThrow(read(onPostgres({ module: "/lib/hsm.so", token: "vault" }, "246810", { ORCHESTRATOR_VAULT_PKCS11_KEY_LABEL: "kek-" })))
    const pkcs11 = Option.getOrThrow(settings.vaultPkcs11)
    expect([pkcs11.module, pkcs11.token, Redacted.value(pkcs11.pin), pkcs11.keyLabel]).toEqual(["/lib/hsm.so", "vault", "246810", "kek-"])
    expect(JSON.stringify(settings)).not.toContain("246810")
    expect(String(pkcs11.pin)).not.toContain("246810")
    expect(Option.isNone(Either.getOrThrow(read({})).vaultPkcs11)).toBe(true)

    const missing = read({ ORCHESTRATOR_VAULT_PKCS11_MODULE: "/lib/hsm.so", ORCHESTRATOR_VAULT_PKCS11_PIN: "246810" })
    expect(Either.isLeft(missing) && describeConfigError(missing.left)).toContain("ORCHESTRATOR_VAULT_PKCS11_TOKEN")
    const spaced = read(onPostgres({ module: "/lib/hsm.so", token: "vault" }, "1", { ORCHESTRATOR_VAULT_PKCS11_KEY_LABEL: "my key" }))
    expect(Either.isLeft(spaced) && describeConfigError(spaced.left)).toContain("ORCHESTRATOR_VAULT_PKCS11_KEY_LABEL")
  })

  it("on PostgreSQL the token's keys are the keys given; a wrong PIN, an unknown token or no key stops the start in one line", async () => {
    const token = softHsmToken("vault-settings", "135790")
    const env = onPostgres(token, "135790")
    expect(await refusal(env)).toBe(
      "card vault: PKCS#11: no AES key labelled orchestrator-kek-<version> in token \"vault-settings\" " +
        "(make one with `orchestrator vault pkcs11-keygen --version 1`)"
    )
    expect(await Effect.runPromise(makePkcs11Kek(Either.getOrThrow(read(env)), 1))).toBe("orchestrator-kek-1")

    const wrongPin = await refusal({ ...env, ORCHESTRATOR_VAULT_PKCS11_PIN: "000000" })
    expect(wrongPin).toBe("card vault: PKCS#11 login to token \"vault-settings\": the PIN is wrong")
    expect(await refusal({ ...env, ORCHESTRATOR_VAULT_PKCS11_TOKEN: "other" })).toContain("no token labelled \"other\"")
    expect(await refusal({ ...env, ORCHESTRATOR_VAULT_PKCS11_KEY_LABEL: "payments-" })).toContain("no AES key labelled payments-<version>")
    // The fingerprints' key is given apart from the token's, as with the keyring.
    expect(await refusal(env)).toContain("ORCHESTRATOR_VAULT_FINGERPRINT_KEY")
    // With the right settings the vault's keys are there: what stops the start now is the database (nothing listens on port 1).
    const started = await refusal({ ...env, ORCHESTRATOR_VAULT_FINGERPRINT_KEY: Buffer.alloc(32, 3).toString("base64") })
    expect(started).not.toMatch(/card vault|ORCHESTRATOR_VAULT_KEYS/)
  })

  it("pkcs11-keygen without a configured token says which settings it needs", async () => {
    const failure = await Effect.runPromise(Effect.flip(makePkcs11Kek(Either.getOrThrow(read({})), 1)))
    expect(failure.message).toContain("ORCHESTRATOR_VAULT_PKCS11_MODULE")
  })
})
