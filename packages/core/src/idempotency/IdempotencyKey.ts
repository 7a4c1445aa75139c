import { Data, type DateTime, Schema } from "effect"

/** `Idempotency-Key`: 1 to 255 printable ASCII characters. */
export const IdempotencyKey = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(255),
  Schema.pattern(/^[\x20-\x7E]+$/, { message: () => "must be 1 to 255 printable ASCII characters" })
)

/** A response as it left the server, kept to be replayed byte for byte. */
export interface StoredResponse {
  readonly status: number
  readonly body: string
}

export interface IdempotencyRecord {
  readonly key: string
  readonly fingerprint: string
  /** The object the operation created, once its first transaction committed. */
  readonly resourceId: string | null
  readonly response: StoredResponse | null
  /** While set and in the future, a request is working under this key. */
  readonly lockedUntil: DateTime.Utc | null
  /** Which request holds the lock: only it may attach, complete or release the key. */
  readonly lockToken: string | null
  readonly createdAt: DateTime.Utc
}

/** Another request with this key is still running: 409. */
export class IdempotencyKeyInUse extends Data.TaggedError("IdempotencyKeyInUse")<{ readonly key: string }> {}

/** The key was used for a different request: 422. */
export class IdempotencyKeyReused extends Data.TaggedError("IdempotencyKeyReused")<{ readonly key: string }> {}
