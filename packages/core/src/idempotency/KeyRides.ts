import type { IdempotencyRecord, StoredResponse } from "./IdempotencyKey.js"

/**
 * Writes to a request's Idempotency-Key that ride along with a record's own write: made by the same
 * statement (the same store transaction in memory), so the key and the record change together or not
 * at all, and the key costs no round trip of its own.
 */

/**
 * The key's insert, riding with the first record an operation creates: the record is written only if
 * this inserts the key, and nothing is written when the key exists already (another request has it).
 */
export interface KeyClaim {
  readonly record: IdempotencyRecord
}

/**
 * The key's completion with the answer it replays, riding with the write of the record that answer
 * shows: made only if that write is, and only while `lockToken` still holds the key (as `complete`).
 */
export interface KeyCompletion {
  readonly key: string
  readonly lockToken: string
  readonly response: StoredResponse
}
