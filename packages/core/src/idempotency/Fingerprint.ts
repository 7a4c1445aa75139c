import { Effect } from "effect"
import { sha256Hex } from "../domain/Sha256.js"

/** JSON with object keys sorted at every depth, so the same body always has the same bytes. */
export const canonicalJson = (value: unknown): string => {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null"
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`
}

/**
 * SHA-256 of method, path and canonical body: "the same request" for an idempotency key. Hashed
 * synchronously: the same digest as Web Crypto's, without a thread hop and a promise per request.
 */
export const fingerprint = (method: string, path: string, body: unknown): Effect.Effect<string> =>
  Effect.sync(() => sha256Hex(`${method.toUpperCase()} ${path}\n${canonicalJson(body)}`))
