import { Effect, Layer, type Scope } from "effect"
import { KeyProvider, VaultKeyFailure } from "./KeyProvider.js"
import { DEFAULT_KEK_LABEL, findKeks, openTokenSession, type Pkcs11Session, type Pkcs11Settings, Pkcs11Unavailable, type TokenKek } from "./Pkcs11Token.js"

const IV_BYTES = 12
const TAG_BYTES = 16
const encoder = new TextEncoder()

// The version is in the associated data too: a data key wrapped under one version opens under no other.
const versionedContext = (version: number, context: Uint8Array) => Buffer.from([...encoder.encode(`kek v${version} `), ...context])

const gcm = (token: Pkcs11Session, iv: Buffer, aad: Buffer) => ({
  mechanism: token.library.CKM_AES_GCM,
  parameter: { type: token.library.CK_PARAMS_AES_GCM, iv, ivBits: IV_BYTES * 8, aad, tagBits: TAG_BYTES * 8 }
})

/** AES-256-GCM inside the token: `iv ‖ ciphertext ‖ tag`, the IV drawn from the token's own generator. */
const seal = (token: Pkcs11Session, kek: TokenKek, plain: Uint8Array, aad: Buffer): Uint8Array => {
  const { pkcs11, session } = token
  const iv = pkcs11.C_GenerateRandom(session, Buffer.alloc(IV_BYTES))
  pkcs11.C_EncryptInit(session, gcm(token, iv, aad), kek.handle)
  const sealed = pkcs11.C_Encrypt(session, Buffer.from(plain), Buffer.alloc(plain.length + TAG_BYTES))
  return new Uint8Array(Buffer.concat([iv, sealed]))
}

/** The plain text, or undefined when the tag does not verify (another key, context or a changed bit). */
const open = (token: Pkcs11Session, kek: TokenKek, wrapped: Uint8Array, aad: Buffer): Uint8Array | undefined => {
  if (wrapped.length < IV_BYTES + TAG_BYTES) return undefined
  const { pkcs11, session } = token
  const bytes = Buffer.from(wrapped)
  try {
    pkcs11.C_DecryptInit(session, gcm(token, bytes.subarray(0, IV_BYTES), aad), kek.handle)
    return new Uint8Array(pkcs11.C_Decrypt(session, bytes.subarray(IV_BYTES), Buffer.alloc(bytes.length)))
  } catch {
    // A failed C_Decrypt ends the operation: the session is ready for the next one.
    return undefined
  }
}

/**
 * The vault's keys in a PKCS#11 token (an HSM, a cloud KMS's PKCS#11 library, SoftHSM): AES-256
 * secret keys labelled `<prefix><version>`; the highest version wraps new cards, every one present
 * unwraps. Wrapping and unwrapping are C_Encrypt/C_Decrypt with AES-GCM in the token, the card's
 * context as associated data. One logged-in session for the scope, this process's only one: every
 * call on it is synchronous, so no two operations ever interleave on it.
 */
export const pkcs11KeyProvider = (settings: Pkcs11Settings): Effect.Effect<KeyProvider["Type"], Pkcs11Unavailable, Scope.Scope> =>
  Effect.gen(function*() {
    const token = yield* openTokenSession(settings)
    const prefix = settings.keyLabel ?? DEFAULT_KEK_LABEL
    const keks = yield* Effect.try({
      try: () => findKeks(token, prefix),
      catch: (error) => new Pkcs11Unavailable({ message: `PKCS#11 keys: ${error instanceof Error ? error.message : String(error)}` })
    })
    if (keks.length === 0) {
      return yield* new Pkcs11Unavailable({
        message: `PKCS#11: no AES key labelled ${prefix}<version> in token "${settings.token}" (make one with \`orchestrator vault pkcs11-keygen --version 1\`)`
      })
    }
    const extractable = keks.find((kek) => kek.extractable)
    if (extractable !== undefined) {
      return yield* new Pkcs11Unavailable({ message: `PKCS#11: the key ${prefix}${extractable.version} can leave the token (CKA_EXTRACTABLE): refused` })
    }
    const byVersion = new Map(keks.map((kek) => [kek.version, kek]))
    const current = keks.at(-1)!
    return {
      currentVersion: current.version,
      origin: `PKCS#11 token ${settings.token}`,
      // A token that stops answering is a fault of the machine, not of the card: a defect.
      wrap: (dataKey, context) =>
        Effect.sync(() => ({ version: current.version, wrapped: seal(token, current, dataKey, versionedContext(current.version, context)) })),
      unwrap: (version, wrapped, context) =>
        Effect.suspend(() => {
          const kek = byVersion.get(version)
          const opened = kek === undefined ? undefined : open(token, kek, wrapped, versionedContext(version, context))
          return opened === undefined
            ? Effect.fail(new VaultKeyFailure({ reason: kek === undefined ? `no key of version ${version}` : "the data key does not unwrap" }))
            : Effect.succeed(opened)
        })
    }
  })

/** `pkcs11KeyProvider` as the vault's `KeyProvider` layer: the session opened when built, closed when released. */
export const Pkcs11KeyProviderLive = (settings: Pkcs11Settings) => Layer.scoped(KeyProvider, pkcs11KeyProvider(settings))
