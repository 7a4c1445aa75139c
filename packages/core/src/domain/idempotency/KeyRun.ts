import type { Schema } from "effect"
import type { IdPrefix } from "../Ids.js"
import type { Tenant } from "../Tenant.js"
import type { IdempotencyRecord, KeptAnswer, KeyCompletion } from "./IdempotencyKey.js"

/** A request under an `Idempotency-Key`: whose, which key, and what makes it "the same request". */
export interface KeyedRequest {
  readonly tenant: Tenant
  readonly key: string
  /** Method, path and canonical body, hashed (`fingerprint`). */
  readonly fingerprint: string
  /** The request being served (`req_…`): kept with its answer, so a replay names the request that first got it. */
  readonly requestId: string | null
}

/** How a request's answer is kept: the schema its result is written in, and whether it shows a secret. */
export interface AnswerSpec<A> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any encoded form: the answer is its JSON
  readonly schema: Schema.Schema<A, any>
  /** The answer shows a secret once (a signing secret): kept sealed, so a retry still gets it and a reader of the database does not. */
  readonly sealed?: boolean
}

/** This request holds its key (or runs without one: `request` null) and runs the operation. */
export interface Running {
  readonly _tag: "Running"
  readonly request: KeyedRequest | null
  readonly lockToken: string
  /**
   * The key's insert while it is not written yet: it rides with the operation's first write, which
   * writes nothing when the key exists (then `IdempotentRequests.claimed` judges the request again).
   */
  readonly pending: IdempotencyRecord | null
  /** The id the key named for the object this request creates, from the start. */
  readonly reserved: string | null
  /** An earlier run under this key was cut short after creating (or reserving) this object: finish it. */
  readonly recovered: string | null
}

/** The key was answered before: its answer again. */
export interface Replay {
  readonly _tag: "Replay"
  readonly answer: KeyedAnswer
}

/** The write that wrote the request's answer completed the key with it: nothing is left to keep. */
export interface Completed {
  readonly _tag: "Completed"
  readonly answer: KeptAnswer
}

/**
 * Where a request stands with its `Idempotency-Key`, as a value the operation's pipeline matches:
 * `Running` (claimed, or still to be claimed by its first write), `Replay`, then `Completed` when a
 * write kept the answer. A key in use or used for another request is a failure of `begin`.
 */
export type KeyRun = Running | Replay | Completed

/** The run once the first write has made the key's insert that rode with it: it holds the key. */
export const heldBy = (run: Running): Running => (run.pending === null ? run : { ...run, pending: null })

/** A run without a key: nothing recovered or reserved, writes carry nothing for a key. */
export const noKey: Running = { _tag: "Running", request: null, lockToken: "", pending: null, reserved: null, recovered: null }

/** The answer of a request under a key, as the core rendered and kept it, for the transport to send. */
export interface KeyedAnswer {
  readonly answer: KeptAnswer
  readonly replayed: boolean
  /** On a replay, the request that first got the answer, when it was kept. */
  readonly originalRequestId: string | null
}

/** What a run asks of `begin`: an id chosen now for the object the operation creates, and whether the key rides with the first write. */
export interface RunOptions {
  readonly reserve?: IdPrefix
  /** The key is not written on its own: its insert rides with the operation's first write (`Running.pending`). */
  readonly rides?: boolean
}

/** The key's completion riding with the write of the answer, and the answer it keeps. */
export interface RidingCompletion {
  readonly write: KeyCompletion
  readonly kept: KeptAnswer
}
