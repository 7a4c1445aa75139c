import { Effect, Option, Schema } from "effect"
import { Timestamp } from "../Timestamp.js"

/**
 * `secret` (`sk_…`) acts for the organization on every endpoint; `publishable` (`pk_…`) is meant to
 * be public, in a browser, and can only turn a card typed into the vault's card form into a `pm_…`.
 */
export const ApiKeyKind = Schema.Literal("secret", "publishable")
export type ApiKeyKind = typeof ApiKeyKind.Type

/** An API key as stored: never the key itself, only its keyed hash and a hint for humans. */
export class ApiKey extends Schema.Class<ApiKey>("ApiKey")({
  id: Schema.String,
  organization_id: Schema.String,
  livemode: Schema.Boolean,
  /** Keys stored before publishable keys existed are all secret ones. */
  kind: Schema.optionalWith(ApiKeyKind, { default: () => "secret" }),
  key_hash: Schema.String,
  /** `sk_test_…wXyZ`: enough for a person to recognise the key, useless to an attacker. */
  hint: Schema.String,
  created_at: Timestamp,
  revoked_at: Schema.NullOr(Timestamp)
}) {}

const SECRET_KEY = /^sk_(test|live)_[0-9A-Za-z]{32,128}$/
const PUBLISHABLE_KEY = /^pk_(test|live)_[0-9A-Za-z]{32,128}$/

/** Splits a presented secret key into its mode; malformed keys are `None`. */
export const parseSecretKey = (token: string): Option.Option<{ readonly livemode: boolean }> => {
  const match = SECRET_KEY.exec(token)
  return match === null ? Option.none() : Option.some({ livemode: match[1] === "live" })
}

/** Splits a presented publishable key into its mode; malformed keys are `None`. */
export const parsePublishableKey = (token: string): Option.Option<{ readonly livemode: boolean }> => {
  const match = PUBLISHABLE_KEY.exec(token)
  return match === null ? Option.none() : Option.some({ livemode: match[1] === "live" })
}

/** Whether a token is written as a publishable key, whatever follows its prefix. */
export const looksPublishable = (token: string): boolean => /^pk_(test|live)_/.test(token)

export const hintOf = (token: string): string => `${token.slice(0, 8)}…${token.slice(-4)}`

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/** `sk_test_` or `sk_live_` (`pk_…` for a publishable key) followed by 40 random base62 characters (≈ 238 bits). */
export const generateApiKey = (livemode: boolean, kind: ApiKeyKind = "secret"): string => {
  // Rejection sampling keeps every character uniformly likely.
  let body = ""
  while (body.length < 40) {
    for (const byte of crypto.getRandomValues(new Uint8Array(64))) {
      if (byte < 248 && body.length < 40) body += BASE62[byte % 62]
    }
  }
  return `${kind === "secret" ? "sk" : "pk"}_${livemode ? "live" : "test"}_${body}`
}

const encoder = new TextEncoder()

const toHex = (bytes: ArrayBuffer): string => Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("")

/** The keyed hash under which an API key is stored and looked up. */
export const hashApiKey = (key: CryptoKey, token: string): Effect.Effect<string> =>
  Effect.promise(() => crypto.subtle.sign("HMAC", key, encoder.encode(token))).pipe(Effect.map(toHex))
