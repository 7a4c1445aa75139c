import { makePkcs11Kek, type Settings } from "@orchestrator/application"
import { Console, Effect, Option } from "effect"

/**
 * `vault pkcs11-keygen --version N`: a new KEK made inside the configured PKCS#11 token. Each process
 * reads the token's keys when it starts, so the new version wraps new cards once they restart.
 */
export const pkcs11Keygen = (settings: Settings, version: number) =>
  Effect.flatMap(makePkcs11Kek(settings, version), (label) =>
    Console.log(
      `Made the key ${label} in PKCS#11 token ${Option.getOrThrow(settings.vaultPkcs11).token} (AES-256, not extractable).\n` +
        `Restart every process of the service: each then wraps new cards under version ${version} and still opens the older ones.`
    ))
