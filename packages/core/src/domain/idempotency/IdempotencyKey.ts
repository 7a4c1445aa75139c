import { type DateTime, Effect, Schema } from "effect"
import { type FailureAnswer, type FailureKind, ServiceFailure } from "../Failure.js"
import { sha256Hex } from "../Sha256.js"

/** `Idempotency-Key`: 1 to 255 printable ASCII characters. */
export const IdempotencyKey = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(255),
  Schema.pattern(/^[\x20-\x7E]+$/, { message: () => "must be 1 to 255 printable ASCII characters" })
)

/**
 * What a request answered, as the core renders it and its key keeps it: the JSON of its result, or
 * of its failure (code, message, param and the object it concerns, without a request id, which each
 * answer stamps anew). `Http` is an answer kept by a version before this one, as it left the server.
 */
export type KeptAnswer =
  | { readonly _tag: "Succeeded"; readonly json: string }
  | { readonly _tag: "Failed"; readonly kind: FailureKind; readonly tag: string; readonly json: string }
  | { readonly _tag: "Http"; readonly status: number; readonly body: string }

/**
 * An answer as its key stores it: `outcome` says which (`succeeded`, `failed:<kind>:<tag>`, or
 * `http:<status>` for answers kept before this version), `body` holds its text, prefixed with the
 * request that first got it (`request:<id>` and a newline) and sealed when it shows a secret.
 */
export interface StoredAnswer {
  readonly outcome: string
  readonly body: string
}

/**
 * The key's completion with its answer, riding with the write of the record that answer shows: made
 * by the same statement (the same store transaction in memory), only if that write is, and only while
 * `lockToken` still holds the key (as `complete`). (The key's insert rides the same way with a
 * record's first write: the `IdempotencyRecord` itself, see `RecordStore.insertWithEvents`.)
 */
export interface KeyCompletion {
  readonly key: string
  readonly lockToken: string
  readonly answer: StoredAnswer
}

export interface IdempotencyRecord {
  readonly key: string
  readonly fingerprint: string
  /** The object the operation created (or will create, under an id chosen with the key). */
  readonly resourceId: string | null
  readonly answer: StoredAnswer | null
  /** While set and in the future, a request is working under this key. */
  readonly lockedUntil: DateTime.Utc | null
  /** Which request holds the lock: only it may attach, complete or release the key. */
  readonly lockToken: string | null
  readonly createdAt: DateTime.Utc
}

/** Another request with this key is still running: 409. */
export class IdempotencyKeyInUse extends ServiceFailure("IdempotencyKeyInUse", {
  kind: "key_in_use",
  codes: ["idempotency_key_in_use"],
  description: "A request with this Idempotency-Key is still running"
})<{ readonly key: string }> {
  get answer(): FailureAnswer {
    return { message: "A request with this Idempotency-Key is still being processed. Retry in a moment.", param: "Idempotency-Key" }
  }
}

/** The key was used for a different request: 422. */
export class IdempotencyKeyReused extends ServiceFailure("IdempotencyKeyReused", {
  kind: "key_reused",
  codes: ["idempotency_key_reused"],
  description: "This Idempotency-Key was used for a different request"
})<{ readonly key: string }> {
  get answer(): FailureAnswer {
    return { message: "This Idempotency-Key was used for a different request. Use a new key for a new request.", param: "Idempotency-Key" }
  }
}

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
