import { Data } from "effect"

/**
 * An outbound call that got no complete answer. `sent` tells whether the request may have reached
 * the peer: false when the policy refused it or no connection was made (safe to send again),
 * true once a connection carried it (a PSP may have acted on it). `code` is a Node error code or
 * one of the client's own: `EGRESS_REFUSED`, `EGRESS_CONNECT_TIMEOUT`, `EGRESS_DEADLINE`,
 * `EGRESS_ANSWER_TOO_LARGE`. `message` is ours, never the peer's words.
 */
export class EgressFailure extends Data.TaggedError("EgressFailure")<{
  readonly sent: boolean
  readonly code: string
  readonly message: string
}> {}
