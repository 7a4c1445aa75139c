import { Data, Effect } from "effect"
import { hmacSha256 } from "../HmacSha256.js"

/**
 * The signature of every webhook the service sends (and the sandbox PSP's): header
 * `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "{t}.{raw body}">`, one `v1` per
 * secret in use (two while a secret is being rotated).
 */
export const SIGNATURE_HEADER = "service-signature"

/** How far a signature's timestamp may be from now, in seconds. */
export const DEFAULT_TOLERANCE_SECONDS = 300

export class SignatureInvalid extends Data.TaggedError("SignatureInvalid")<{
  readonly reason: "missing" | "malformed" | "stale" | "mismatch"
}> {}

const encoder = new TextEncoder()

const concat = (a: Uint8Array, b: Uint8Array) => {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")

/** The secret's bytes: a `whsec_` prefix is part of how it is shown, not of the key. */
const keyBytes = (secret: string) => encoder.encode(secret)

/**
 * Hex HMAC-SHA256 of `{timestamp}.{body}` with `secret`, computed synchronously: one per delivery
 * attempt, where Web Crypto would cost a key import and a signature on another thread, each a promise.
 */
export const computeSignature = (secret: string, timestamp: number, body: Uint8Array) =>
  Effect.sync(() => hex(hmacSha256(keyBytes(secret), concat(encoder.encode(`${timestamp}.`), body))))

/** The header value for `body` signed at `timestamp` with each of `secrets`. */
export const signatureHeader = (secrets: ReadonlyArray<string>, timestamp: number, body: Uint8Array) =>
  Effect.map(
    Effect.forEach(secrets, (secret) => computeSignature(secret, timestamp, body)),
    (signatures) => [`t=${timestamp}`, ...signatures.map((signature) => `v1=${signature}`)].join(",")
  )

const equalInConstantTime = (a: string, b: string) => {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return difference === 0
}

/**
 * Checks a signature header against the exact raw body: at least one `v1` must match one of
 * `secrets`, and `t` must be within `toleranceSeconds` of `nowSeconds`.
 */
export const verifySignature = (options: {
  readonly header: string | undefined
  readonly body: Uint8Array
  readonly secrets: ReadonlyArray<string>
  readonly nowSeconds: number
  readonly toleranceSeconds?: number
}) =>
  Effect.gen(function*() {
    if (options.header === undefined || options.header.trim() === "") {
      return yield* new SignatureInvalid({ reason: "missing" })
    }
    const parts = options.header.split(",").map((part) => part.trim())
    const timestamps = parts.filter((part) => part.startsWith("t=")).map((part) => part.slice(2))
    const signatures = parts.filter((part) => part.startsWith("v1=")).map((part) => part.slice(3))
    const timestamp = timestamps.length === 1 && /^\d{1,12}$/.test(timestamps[0]!) ? Number(timestamps[0]) : NaN
    if (Number.isNaN(timestamp) || signatures.length === 0) return yield* new SignatureInvalid({ reason: "malformed" })
    if (Math.abs(options.nowSeconds - timestamp) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) {
      return yield* new SignatureInvalid({ reason: "stale" })
    }
    for (const secret of options.secrets) {
      const expected = yield* computeSignature(secret, timestamp, options.body)
      if (signatures.some((signature) => equalInConstantTime(signature, expected))) return timestamp
    }
    return yield* new SignatureInvalid({ reason: "mismatch" })
  })
