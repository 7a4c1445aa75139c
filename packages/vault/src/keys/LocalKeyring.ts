import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { gcmOpen, gcmSeal } from "../crypto/Gcm.js"
import { KeyProvider, VaultKeyFailure } from "./KeyProvider.js"

/** Versioned KEKs, 32 bytes each. */
export type Keyring = ReadonlyMap<number, Uint8Array>

const encoder = new TextEncoder()

/**
 * Reads `1:<base64>,2:<base64>` (commas, semicolons or new lines between entries). A version is
 * a positive integer; a key is 32 bytes. An entry `3:<base64>^<base64>` is two custodian shares,
 * combined (XOR) into the key, so no one person ever holds it.
 */
export const parseKeyring = (text: string): Keyring => {
  const keys = new Map<number, Uint8Array>()
  for (const entry of text.split(/[,;\n]/).map((part) => part.trim()).filter((part) => part.length > 0 && !part.startsWith("#"))) {
    const match = /^([1-9][0-9]{0,5}):(.+)$/.exec(entry)
    if (match === null) throw new Error("a vault key entry is not '<version>:<base64 key>'")
    const version = Number(match[1])
    const parts = match[2]!.split("^").map((part) => new Uint8Array(Buffer.from(part, "base64")))
    if (parts.length > 2 || parts.some((part) => part.length !== 32)) {
      throw new Error(`vault key version ${version} is not 32 bytes of base64 (or two custodian shares of 32 bytes)`)
    }
    keys.set(version, parts.length === 2 ? combineShares(parts[0]!, parts[1]!) : parts[0]!)
  }
  if (keys.size === 0) throw new Error("no vault key in the keyring")
  return keys
}

/** Two custodians' shares make the key: each alone says nothing about it. */
export const combineShares = (first: Uint8Array, second: Uint8Array): Uint8Array => first.map((byte, index) => byte ^ second[index]!)

/** Two shares of a key: a random one, and the key XOR it. */
export const splitKey = (key: Uint8Array): readonly [Uint8Array, Uint8Array] => {
  const first = new Uint8Array(randomBytes(32))
  return [first, combineShares(key, first)]
}

export const formatKeyring = (keys: Keyring): string => [...keys].map(([version, key]) => `${version}:${Buffer.from(key).toString("base64")}`).join("\n") + "\n"

const versionedContext = (version: number, context: Uint8Array) => new Uint8Array([...encoder.encode(`kek v${version} `), ...context])

/** The keyring as a `KeyProvider`: the newest version wraps, every version it holds unwraps. */
export const localKeyProvider = (keys: Keyring, origin: string): KeyProvider["Type"] => {
  const versions = [...keys.keys()].sort((a, b) => a - b)
  const currentVersion = versions.at(-1)!
  return {
    currentVersion,
    origin,
    wrap: (dataKey, context) =>
      Effect.sync(() => ({
        version: currentVersion,
        wrapped: gcmSeal(keys.get(currentVersion)!, dataKey, versionedContext(currentVersion, context))
      })),
    unwrap: (version, wrapped, context) => {
      const key = keys.get(version)
      const opened = key === undefined ? undefined : gcmOpen(key, wrapped, versionedContext(version, context))
      return opened === undefined
        ? Effect.fail(new VaultKeyFailure({ reason: key === undefined ? `no key of version ${version}` : "the data key does not unwrap" }))
        : Effect.succeed(opened)
    }
  }
}

/**
 * Where the local keyring's keys come from, first found wins: the keys themselves
 * (`ORCHESTRATOR_VAULT_KEYS`), a file of them (`ORCHESTRATOR_VAULT_KEYS_FILE`), or, for the
 * embedded start only, a file beside the database generated on first start.
 */
export interface KeyringSource {
  readonly keys?: string | undefined
  readonly file?: string | undefined
  readonly generatedFile?: string | undefined
}

/** Loads (or for `generatedFile`, makes once) the keyring; `said` tells the operator where it came from. */
export const loadKeyring = (source: KeyringSource): { readonly keys: Keyring; readonly origin: string } => {
  if (source.keys !== undefined && source.keys.trim() !== "") return { keys: parseKeyring(source.keys), origin: "ORCHESTRATOR_VAULT_KEYS" }
  if (source.file !== undefined) return { keys: parseKeyring(readFileSync(source.file, "utf8")), origin: `the file ${source.file}` }
  if (source.generatedFile !== undefined) {
    if (!existsSync(source.generatedFile)) {
      mkdirSync(dirname(source.generatedFile), { recursive: true })
      writeFileSync(source.generatedFile, formatKeyring(new Map([[1, new Uint8Array(randomBytes(32))]])), { mode: 0o600, flag: "wx" })
      return { keys: parseKeyring(readFileSync(source.generatedFile, "utf8")), origin: `a key generated now in ${source.generatedFile}` }
    }
    return { keys: parseKeyring(readFileSync(source.generatedFile, "utf8")), origin: `the generated key in ${source.generatedFile}` }
  }
  throw new Error("the card vault has no key: set ORCHESTRATOR_VAULT_KEYS or ORCHESTRATOR_VAULT_KEYS_FILE")
}
