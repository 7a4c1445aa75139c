import { Effect } from "effect"

// Crockford base32, the alphabet of the service's ids: the secret stays `[0-9A-Z]` and URL-safe.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

const encoder = new TextEncoder()

/** 32 characters of 5 bits each from the first 20 bytes: 160 bits of the MAC. */
const base32Of = (bytes: Uint8Array): string => {
  let out = ""
  let buffer = 0
  let bits = 0
  for (const byte of bytes.subarray(0, 20)) {
    buffer = (buffer << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31]
      bits -= 5
    }
    buffer &= (1 << bits) - 1
  }
  return out
}

/**
 * A session's client secret: `<session_id>_secret_<HMAC(key, session_id)>`. Made from the id with a
 * key derived from the master secret, it is never stored (a copy of the database opens no session)
 * and can still be shown again in the server's full view, as the spec's `client_secret` field is.
 */
export const clientSecretOf = (key: CryptoKey, sessionId: string): Effect.Effect<string> =>
  Effect.promise(() => crypto.subtle.sign("HMAC", key, encoder.encode(sessionId))).pipe(
    Effect.map((mac) => `${sessionId}_secret_${base32Of(new Uint8Array(mac))}`)
  )

/**
 * The SHA-256 (hex) under which migration 0008 kept the random secrets of sessions made before it.
 * A migration has no key material, hence no HMAC; over a secret of 160 random bits an unkeyed hash
 * is as good as one: nothing can be guessed to match it.
 */
export const legacySecretDigest = (secret: string): Effect.Effect<string> =>
  Effect.promise(() => crypto.subtle.digest("SHA-256", encoder.encode(secret))).pipe(
    Effect.map((digest) => Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join(""))
  )
