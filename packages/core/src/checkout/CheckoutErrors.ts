import { Data } from "effect"
import type { CheckoutSessionRecord } from "./CheckoutSession.js"

/** No such session for this caller: unknown, another organization's or mode's, or another session's secret. */
export class CheckoutSessionNotFound extends Data.TaggedError("CheckoutSessionNotFound")<{ readonly id: string }> {}

/** The action does not apply to the session in its current status (decisions §12). */
export class CheckoutSessionStateConflict extends Data.TaggedError("CheckoutSessionStateConflict")<{
  readonly session: CheckoutSessionRecord
  readonly action: "confirm" | "cancel" | "reroute"
}> {}

/** The client secret is malformed or opens no session. */
export class ClientSecretRejected extends Data.TaggedError("ClientSecretRejected")<{}> {}

/** Confirmed with a method the session does not allow (`allowed_methods`, cards when it names none). */
export class CheckoutMethodNotAllowed extends Data.TaggedError("CheckoutMethodNotAllowed")<{
  readonly method: string
  readonly allowed: ReadonlyArray<string>
}> {}
