import { Effect, Either, Layer, Option, Redacted } from "effect"
import { ConfigProvider } from "effect"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { applicationFor } from "../src/service/Service.js"
import { vaultKeysFor } from "../src/service/VaultKeys.js"
import { SettingsConfig } from "../src/settings/Settings.js"

const settingsWith = (env: Record<string, string>) =>
  Effect.runSync(Effect.withConfigProvider(SettingsConfig, ConfigProvider.fromMap(new Map(Object.entries(env)))))

const KEY = `1:${Buffer.alloc(32, 9).toString("base64")}`

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

  it("on PostgreSQL the configured keys are used", () => {
    const settings = settingsWith({ DATABASE_URL: "postgres://postgres@127.0.0.1:1/none", ORCHESTRATOR_VAULT_KEYS: KEY })
    const loaded = Effect.runSync(vaultKeysFor(settings))
    expect(loaded.origin).toBe("ORCHESTRATOR_VAULT_KEYS")
    expect([...loaded.keys.keys()]).toEqual([1])
  })

  it("the embedded start generates a key once beside its database, and says so", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "vault-keys-"))
    const settings = { ...settingsWith({ ORCHESTRATOR_DATA_DIR: dataDir }), vaultKeys: Option.none<Redacted.Redacted>() }
    const first = Effect.runSync(vaultKeysFor(settings))
    expect(first.origin).toBe(`a key generated now in ${path.join(dataDir, "vault.keys")}`)
    const second = Effect.runSync(vaultKeysFor(settings))
    expect(second.origin).toBe(`the generated key in ${path.join(dataDir, "vault.keys")}`)
    expect(second.keys.get(1)).toEqual(first.keys.get(1))
  })
})
