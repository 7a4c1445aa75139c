import { hkdfSync, randomBytes } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import type { Keyring } from "./LocalKeyring.js"

/** `<base64 of 32 bytes>`, the key of the cards' fingerprints (`ORCHESTRATOR_VAULT_FINGERPRINT_KEY`). */
export const parseFingerprintKey = (text: string): Uint8Array => {
  const key = new Uint8Array(Buffer.from(text.trim(), "base64"))
  if (key.length !== 32) throw new Error("ORCHESTRATOR_VAULT_FINGERPRINT_KEY is not 32 bytes of base64 (e.g. from `openssl rand -base64 32`)")
  return key
}

/**
 * What fingerprints were keyed with before they had a key of their own: derived from the keyring's
 * oldest KEK. An embedded start that already has cards keeps it (written to its file once), so their
 * fingerprints do not change; from then on it no longer follows the keyring.
 */
export const derivedFingerprintKey = (keys: Keyring): Uint8Array => {
  const oldest = keys.get(Math.min(...keys.keys()))!
  return new Uint8Array(hkdfSync("sha256", oldest, new Uint8Array(32), "vault card fingerprint v1", 32))
}

/**
 * The fingerprint key, first found: the setting's value, else (embedded start only) the file beside
 * the database, made on first start: from an existing keyring as fingerprints were keyed before
 * (`keyringExisted`), else random. `origin` says where it came from (never the key).
 */
export const loadFingerprintKey = (source: {
  readonly key?: string | undefined
  readonly generatedFile?: string | undefined
  readonly keyring: Keyring
  readonly keyringExisted: boolean
}): { readonly key: Uint8Array; readonly origin: string } => {
  if (source.key !== undefined && source.key.trim() !== "") return { key: parseFingerprintKey(source.key), origin: "ORCHESTRATOR_VAULT_FINGERPRINT_KEY" }
  if (source.generatedFile === undefined) {
    throw new Error(
      "the card vault has no fingerprint key: on PostgreSQL set ORCHESTRATOR_VAULT_FINGERPRINT_KEY (e.g. `$(openssl rand -base64 32)`), the same for every process"
    )
  }
  if (!existsSync(source.generatedFile)) {
    const key = source.keyringExisted ? derivedFingerprintKey(source.keyring) : new Uint8Array(randomBytes(32))
    mkdirSync(dirname(source.generatedFile), { recursive: true })
    writeFileSync(source.generatedFile, `${Buffer.from(key).toString("base64")}\n`, { mode: 0o600, flag: "wx" })
    return { key: parseFingerprintKey(readFileSync(source.generatedFile, "utf8")), origin: `a fingerprint key made now in ${source.generatedFile}` }
  }
  return { key: parseFingerprintKey(readFileSync(source.generatedFile, "utf8")), origin: `the fingerprint key in ${source.generatedFile}` }
}
