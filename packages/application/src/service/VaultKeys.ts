import { loadKeyring } from "@orchestrator/vault"
import { Effect, Option, Redacted } from "effect"
import * as path from "node:path"
import type { Settings } from "../settings/Settings.js"

/** Why a service on PostgreSQL will not start without its vault keys, naming the settings. */
export const MISSING_VAULT_KEYS = "the card vault has no keys: on PostgreSQL set ORCHESTRATOR_VAULT_KEYS (e.g. `1:$(openssl rand -base64 32)`) " +
  "or ORCHESTRATOR_VAULT_KEYS_FILE, the same for every process; only the embedded start generates a key of its own"

/**
 * The card vault's keyring for `settings`: the configured keys, else (embedded start only) a key
 * generated once beside the database. On PostgreSQL several processes, often on several machines, share
 * the cards: each generating its own key would leave every card readable by one of them only.
 */
export const vaultKeysFor = (settings: Pick<Settings, "database" | "dataDir" | "vaultKeys" | "vaultKeysFile">) =>
  Effect.try({
    try: () => {
      const keys = Option.getOrUndefined(Option.map(settings.vaultKeys, Redacted.value))
      const file = Option.getOrUndefined(settings.vaultKeysFile)
      if (keys === undefined && file === undefined && settings.database._tag !== "Embedded") throw new Error(MISSING_VAULT_KEYS)
      return loadKeyring({
        keys,
        file,
        generatedFile: settings.database._tag === "Embedded" ? path.join(settings.dataDir, "vault.keys") : undefined
      })
    },
    catch: (error) => new Error(`card vault: ${error instanceof Error ? error.message : String(error)}`)
  })
