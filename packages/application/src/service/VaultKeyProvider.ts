import { generateKek, KeyProvider, loadFingerprintKey, localKeyProvider, pkcs11KeyProvider, type Pkcs11Settings } from "@orchestrator/vault"
import { Effect, Layer, Option, Redacted, type Scope } from "effect"
import * as path from "node:path"
import { announce } from "../logging/ServiceLogger.js"
import type { Settings } from "../settings/Settings.js"
import { vaultKeysFor } from "./VaultKeys.js"

type VaultKeySettings = Pick<Settings, "database" | "dataDir" | "vaultKeys" | "vaultKeysFile" | "vaultFingerprintKey" | "vaultPkcs11">

/** The token's keys, and the fingerprint key as the keyring has it (the setting, or the embedded start's file). */
const tokenKeys = (settings: VaultKeySettings, pkcs11: Pkcs11Settings) =>
  Effect.gen(function*() {
    const provider = yield* Effect.mapError(pkcs11KeyProvider(pkcs11), (failure) => new Error(`card vault: ${failure.message}`))
    const fingerprint = yield* Effect.try({
      try: () =>
        loadFingerprintKey({
          key: Option.getOrUndefined(Option.map(settings.vaultFingerprintKey, Redacted.value)),
          generatedFile: settings.database._tag === "Embedded" ? path.join(settings.dataDir, "vault-fingerprint.key") : undefined,
          keyring: new Map(),
          keyringExisted: false
        }),
      catch: (error) => new Error(`card vault: ${error instanceof Error ? error.message : String(error)}`)
    })
    return { provider, fingerprintKey: fingerprint.key, origin: `${provider.origin}, ${fingerprint.origin}` }
  })

/**
 * The card vault's key provider for `settings`, and its fingerprints' key: the PKCS#11 token when its
 * module is set (the keys given, on PostgreSQL too; the fingerprint key as the keyring's, from
 * ORCHESTRATOR_VAULT_FINGERPRINT_KEY or, embedded only, its file), else the local keyring
 * (`vaultKeysFor`). The token's session is opened now and closed with `Scope`, so a missing token, a
 * wrong PIN or no key stops the start, in one line. A service (`announce`) says where the keys come from.
 */
export const vaultKeyProviderFor = (
  settings: VaultKeySettings,
  options: { readonly announce?: boolean } = {}
): Effect.Effect<{ readonly keys: Layer.Layer<KeyProvider>; readonly fingerprintKey: Uint8Array }, Error, Scope.Scope> =>
  Effect.gen(function*() {
    const { fingerprintKey, origin, provider } = Option.isSome(settings.vaultPkcs11)
      ? yield* tokenKeys(settings, settings.vaultPkcs11.value)
      : yield* Effect.map(vaultKeysFor(settings), (keyring) => ({
        provider: localKeyProvider(keyring.keys, keyring.origin),
        fingerprintKey: keyring.fingerprintKey,
        origin: keyring.origin
      }))
    if (options.announce === true) yield* announce(`Card vault: keys from ${origin}`)
    return { keys: Layer.succeed(KeyProvider, provider), fingerprintKey }
  })

/** Why `vault pkcs11-keygen` cannot run: no token configured. */
export const NO_PKCS11_MODULE = "vault pkcs11-keygen needs ORCHESTRATOR_VAULT_PKCS11_MODULE, ORCHESTRATOR_VAULT_PKCS11_TOKEN and ORCHESTRATOR_VAULT_PKCS11_PIN"

/** Makes the KEK of `version` in the configured token (generated inside it, never extractable); its label. */
export const makePkcs11Kek = (settings: Pick<Settings, "vaultPkcs11">, version: number): Effect.Effect<string, Error> =>
  Option.match(settings.vaultPkcs11, {
    onNone: () => Effect.fail(new Error(NO_PKCS11_MODULE)),
    onSome: (pkcs11) => Effect.mapError(generateKek(pkcs11, version), (failure) => new Error(failure.message))
  })
