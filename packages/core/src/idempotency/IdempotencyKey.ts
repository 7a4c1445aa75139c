import { type DateTime, Schema } from "effect"
import { type FailureAnswer, ServiceFailure } from "../domain/Failure.js"

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
