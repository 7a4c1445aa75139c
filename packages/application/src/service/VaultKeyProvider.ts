import { generateKek, KeyProvider, localKeyProvider, pkcs11KeyProvider } from "@orchestrator/vault"
import { Effect, Layer, Option, type Scope } from "effect"
import { announce } from "../logging/ServiceLogger.js"
import type { Settings } from "../settings/Settings.js"
import { vaultKeysFor } from "./VaultKeys.js"

type VaultKeySettings = Pick<Settings, "database" | "dataDir" | "vaultKeys" | "vaultKeysFile" | "vaultPkcs11">

/**
 * The card vault's key provider for `settings`: the PKCS#11 token when its module is set (the keys
 * given, on PostgreSQL too), else the local keyring (`vaultKeysFor`). The token's session is opened
 * now and closed with `Scope`, so a missing token, a wrong PIN or no key stops the start, in one line.
 * A service (`announce`) says where the keys come from.
 */
export const vaultKeyProviderFor = (
  settings: VaultKeySettings,
  options: { readonly announce?: boolean } = {}
): Effect.Effect<Layer.Layer<KeyProvider>, Error, Scope.Scope> =>
  Effect.gen(function*() {
    const provider = Option.isSome(settings.vaultPkcs11)
      ? yield* Effect.mapError(pkcs11KeyProvider(settings.vaultPkcs11.value), (failure) => new Error(`card vault: ${failure.message}`))
      : yield* Effect.map(vaultKeysFor(settings), (keyring) => localKeyProvider(keyring.keys, keyring.origin))
    if (options.announce === true) yield* announce(`Card vault: keys from ${provider.origin}`)
    return Layer.succeed(KeyProvider, provider)
  })

/** Why `vault pkcs11-keygen` cannot run: no token configured. */
export const NO_PKCS11_MODULE = "vault pkcs11-keygen needs ORCHESTRATOR_VAULT_PKCS11_MODULE, ORCHESTRATOR_VAULT_PKCS11_TOKEN and ORCHESTRATOR_VAULT_PKCS11_PIN"

/** Makes the KEK of `version` in the configured token (generated inside it, never extractable); its label. */
export const makePkcs11Kek = (settings: Pick<Settings, "vaultPkcs11">, version: number): Effect.Effect<string, Error> =>
  Option.match(settings.vaultPkcs11, {
    onNone: () => Effect.fail(new Error(NO_PKCS11_MODULE)),
    onSome: (pkcs11) => Effect.mapError(generateKek(pkcs11, version), (failure) => new Error(failure.message))
  })
