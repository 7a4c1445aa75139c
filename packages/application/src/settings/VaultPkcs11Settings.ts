import type { Pkcs11Settings } from "@orchestrator/vault"
import { Config, ConfigError, Either, Option, Redacted } from "effect"

const text = (name: string) => Config.option(Config.string(name)).pipe(Config.map(Option.filter((value) => value.trim() !== "")))

/**
 * The vault's keys in a PKCS#11 token (an HSM): `ORCHESTRATOR_VAULT_PKCS11_MODULE` (the vendor's
 * library) turns it on, and then the token's label (`…_TOKEN`) and its user PIN (`…_PIN`, redacted)
 * are required; `…_KEY_LABEL` is what the KEKs' labels start with. None without the module.
 */
export const VaultPkcs11Config: Config.Config<Option.Option<Pkcs11Settings>> = Config.all({
  module: text("ORCHESTRATOR_VAULT_PKCS11_MODULE"),
  token: text("ORCHESTRATOR_VAULT_PKCS11_TOKEN"),
  pin: Config.option(Config.redacted("ORCHESTRATOR_VAULT_PKCS11_PIN")).pipe(
    Config.map(Option.filter((pin) => Redacted.value(pin) !== ""))
  ),
  keyLabel: text("ORCHESTRATOR_VAULT_PKCS11_KEY_LABEL")
}).pipe(
  Config.mapOrFail(({ keyLabel, module, pin, token }) => {
    if (Option.isNone(module)) return Either.right(Option.none())
    if (Option.isNone(token) || Option.isNone(pin)) {
      return Either.left(
        ConfigError.InvalidData(
          [],
          "ORCHESTRATOR_VAULT_PKCS11_MODULE needs ORCHESTRATOR_VAULT_PKCS11_TOKEN (the token's label) and ORCHESTRATOR_VAULT_PKCS11_PIN"
        )
      )
    }
    if (Option.isSome(keyLabel) && !/^[\x21-\x7e]{1,64}$/.test(keyLabel.value)) {
      return Either.left(ConfigError.InvalidData([], "ORCHESTRATOR_VAULT_PKCS11_KEY_LABEL must be 1 to 64 printable characters without spaces"))
    }
    return Either.right(Option.some({ module: module.value, token: token.value, pin: pin.value, keyLabel: Option.getOrUndefined(keyLabel) }))
  })
)
