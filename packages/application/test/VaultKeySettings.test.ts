import { derivedFingerprintKey } from "@orchestrator/vault"
import { ConfigProvider, Effect, Either, Layer, Option, Redacted } from "effect"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { applicationFor } from "../src/service/Service.js"
import { vaultKeysFor } from "../src/service/VaultKeys.js"
import { SettingsConfig } from "../src/settings/Settings.js"

const settingsWith = (env: Record<string, string>) =>
  Effect.runSync(Effect.withConfigProvider(SettingsConfig, ConfigProvider.fromMap(new Map(Object.entries(env)))))

const KEY = `1:${Buffer.alloc(32, 9).toString("base64")}`
const FINGERPRINT = Buffer.alloc(32, 4).toString("base64")

describe("where the card vault's keys come from", () => {
  it("on PostgreSQL without ORCHESTRATOR_VAULT_KEYS(_FILE), the service refuses to start and names both settings", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "vault-keys-"))
    // Refused before the database is touched: the address below need not answer.
    const settings = settingsWith({ DATABASE_URL: "postgres://postgres@127.0.0.1:1/none", ORCHESTRATOR_DATA_DIR: dataDir })
    const started = await Effect.runPromise(Effect.either(Effect.scoped(Layer.build(applicationFor(settings)))))
    expect(Either.isLeft(started)).toBe(true)
    const message = String(Either.isLeft(started) ? (started.left as Error).message : "")
    expect(message).toContain("ORCHESTRATOR_VAULT_KEYS")
    expect(message).toContain("ORCHESTRATOR_VAULT_KEYS_FILE")
    // Nothing generated that a second process would generate differently.
    expect(() => readFileSync(path.join(dataDir, "vault.keys"))).toThrow()
  })

  it("on PostgreSQL the configured keys are used, and the fingerprint key is required as well", () => {
    const postgres = { DATABASE_URL: "postgres://postgres@127.0.0.1:1/none", ORCHESTRATOR_VAULT_KEYS: KEY }
    const loaded = Effect.runSync(vaultKeysFor(settingsWith({ ...postgres, ORCHESTRATOR_VAULT_FINGERPRINT_KEY: FINGERPRINT })))
    expect(loaded.origin).toBe("ORCHESTRATOR_VAULT_KEYS, ORCHESTRATOR_VAULT_FINGERPRINT_KEY")
    expect([...loaded.keys.keys()]).toEqual([1])
    expect(loaded.fingerprintKey).toEqual(new Uint8Array(32).fill(4))
    const refused = Effect.runSync(Effect.either(vaultKeysFor(settingsWith(postgres))))
    expect(Either.isLeft(refused) ? refused.left.message : "").toContain("ORCHESTRATOR_VAULT_FINGERPRINT_KEY")
    const badKey = Effect.runSync(
      Effect.either(
        Effect.withConfigProvider(
          SettingsConfig,
          ConfigProvider.fromMap(new Map(Object.entries({ ...postgres, ORCHESTRATOR_VAULT_FINGERPRINT_KEY: "c2hvcnQ=" })))
        )
      )
    )
    expect(Either.isLeft(badKey)).toBe(true)
  })

  it("the embedded start keeps the fingerprints of cards vaulted before the key had its own setting", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "vault-keys-"))
    writeFileSync(path.join(dataDir, "vault.keys"), `${KEY}\n`)
    const settings = settingsWith({ ORCHESTRATOR_DATA_DIR: dataDir })
    const loaded = Effect.runSync(vaultKeysFor(settings))
    // As fingerprints were keyed until now (from the oldest KEK), written once: retiring that KEK changes nothing.
    expect(loaded.fingerprintKey).toEqual(derivedFingerprintKey(loaded.keys))
    expect(readFileSync(path.join(dataDir, "vault-fingerprint.key"), "utf8").trim()).toBe(Buffer.from(loaded.fingerprintKey).toString("base64"))
  })

  it("the embedded start generates a key once beside its database, and says so", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "vault-keys-"))
    const settings = { ...settingsWith({ ORCHESTRATOR_DATA_DIR: dataDir }), vaultKeys: Option.none<Redacted.Redacted>() }
    const first = Effect.runSync(vaultKeysFor(settings))
    expect(first.origin).toContain(`a key generated now in ${path.join(dataDir, "vault.keys")}`)
    const second = Effect.runSync(vaultKeysFor(settings))
    expect(second.origin).toContain(`the generated key in ${path.join(dataDir, "vault.keys")}`)
    expect(second.keys.get(1)).toEqual(first.keys.get(1))
    // A fingerprint key of its own, random (no card was fingerprinted before), kept beside it.
    expect(first.origin).toContain(`a fingerprint key made now in ${path.join(dataDir, "vault-fingerprint.key")}`)
    expect(first.fingerprintKey).not.toEqual(derivedFingerprintKey(first.keys))
    expect(second.fingerprintKey).toEqual(first.fingerprintKey)
  })
})
