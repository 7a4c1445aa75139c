import { loadFingerprintKey, loadKeyring } from "@orchestrator/vault"
import { Effect, Option, Redacted } from "effect"
import { existsSync } from "node:fs"
import * as path from "node:path"
import type { Settings } from "../settings/Settings.js"

/** Why a service on PostgreSQL will not start without its vault keys, naming the settings. */
export const MISSING_VAULT_KEYS = "the card vault has no keys: on PostgreSQL set ORCHESTRATOR_VAULT_KEYS (e.g. `1:$(openssl rand -base64 32)`) " +
  "or ORCHESTRATOR_VAULT_KEYS_FILE, the same for every process; only the embedded start generates a key of its own"

/**
 * The card vault's keyring and fingerprint key for `settings`: the configured ones, else (embedded
 * start only) generated once beside the database. On PostgreSQL several processes, often on several
 * machines, share the cards: each generating its own keys would leave every card readable by one of
 * them only, and the same card with a different fingerprint in each.
 */
export const vaultKeysFor = (
  settings: Pick<Settings, "database" | "dataDir" | "vaultKeys" | "vaultKeysFile" | "vaultFingerprintKey">
) =>
  Effect.try({
    try: () => {
      const keys = Option.getOrUndefined(Option.map(settings.vaultKeys, Redacted.value))
      const file = Option.getOrUndefined(settings.vaultKeysFile)
      const embedded = settings.database._tag === "Embedded"
      if (keys === undefined && file === undefined && !embedded) throw new Error(MISSING_VAULT_KEYS)
      const generatedFile = embedded ? path.join(settings.dataDir, "vault.keys") : undefined
      const keyringExisted = keys !== undefined || file !== undefined || (generatedFile !== undefined && existsSync(generatedFile))
      const keyring = loadKeyring({ keys, file, generatedFile })
      const fingerprint = loadFingerprintKey({
        key: Option.getOrUndefined(Option.map(settings.vaultFingerprintKey, Redacted.value)),
        generatedFile: embedded ? path.join(settings.dataDir, "vault-fingerprint.key") : undefined,
        keyring: keyring.keys,
        keyringExisted
      })
      return { ...keyring, fingerprintKey: fingerprint.key, origin: `${keyring.origin}, ${fingerprint.origin}` }
    },
    catch: (error) => new Error(`card vault: ${error instanceof Error ? error.message : String(error)}`)
  })
