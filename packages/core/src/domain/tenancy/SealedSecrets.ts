import { Data, Effect } from "effect"

/** A sealed secret that does not open: another owner's, tampered with, or sealed with another key. */
export class SecretUnreadable extends Data.TaggedError("SecretUnreadable")<{}> {}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

const toBase64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(""))
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0))

/**
 * Secrets at rest (PSP credentials, webhook signing secrets): AES-256-GCM with a random 96-bit
 * nonce, `v1.<nonce>.<ciphertext and tag>` in base64. `owner` (e.g. `pcn_…/credentials`) is bound
 * in as associated data, so a ciphertext copied to another owner or purpose does not open.
 */
export const sealSecret = (key: CryptoKey, owner: string, plaintext: string) =>
  Effect.promise(async () => {
    const iv = crypto.getRandomValues(new Uint8Array(12))
    const sealed = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: encoder.encode(owner) },
      key,
      encoder.encode(plaintext)
    )
    return `v1.${toBase64(iv)}.${toBase64(new Uint8Array(sealed))}`
  })

/** The plaintext of `sealSecret` for the same `owner`. */
export const openSecret = (key: CryptoKey, owner: string, sealed: string) =>
  Effect.tryPromise({
    try: async () => {
      const [version, iv, data] = sealed.split(".")
      if (version !== "v1" || iv === undefined || data === undefined) throw new Error("unknown format")
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: fromBase64(iv), additionalData: encoder.encode(owner) },
        key,
        fromBase64(data)
      )
      return decoder.decode(plain)
    },
    catch: () => new SecretUnreadable()
  })
