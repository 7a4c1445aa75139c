import { Effect } from "effect"

/** JSON with object keys sorted at every depth, so the same body always has the same bytes. */
export const canonicalJson = (value: unknown): string => {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null"
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`
}

/** SHA-256 of method, path and canonical body: "the same request" for an idempotency key. */
export const fingerprint = (method: string, path: string, body: unknown): Effect.Effect<string> =>
  Effect.promise(() =>
    crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${method.toUpperCase()} ${path}\n${canonicalJson(body)}`))
  ).pipe(Effect.map((digest) => Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("")))
