import { echoed } from "../EchoedText.js"
import { type FailureAnswer, NotFound, ServiceFailure } from "../Failure.js"
import type { CheckoutSessionRecord } from "./CheckoutSession.js"

/** No such session for this caller: unknown, another organization's or mode's, or another session's secret. */
export class CheckoutSessionNotFound extends NotFound("CheckoutSessionNotFound", "checkout session", "this key or client secret") {}

const verbs = { confirm: "paid", cancel: "cancelled", reroute: "rerouted" } as const

/** The action does not apply to the session in its current status (decisions §12). */
export class CheckoutSessionStateConflict extends ServiceFailure("CheckoutSessionStateConflict", {
  kind: "conflict",
  codes: ["checkout_session_unexpected_state"],
  description: "The session is not in a status that allows this"
})<{
  readonly session: CheckoutSessionRecord
  readonly action: "confirm" | "cancel" | "reroute"
}> {
  get answer(): FailureAnswer {
    return { message: `This checkout session is ${this.session.status}; it cannot be ${verbs[this.action]}.` }
  }
}

/** No key and no client secret (`missing`), or a client secret that is malformed or opens no session. */
export class ClientSecretRejected extends ServiceFailure("ClientSecretRejected", {
  kind: "unauthenticated",
  codes: ["api_key_invalid", "api_key_missing"],
  description: "Neither a key nor a client secret, or a client secret that is malformed or opens no checkout session"
})<{ readonly missing?: boolean }> {
  get answer(): FailureAnswer {
    return this.missing === true
      ? { code: "api_key_missing", message: "Send 'Authorization: Bearer sk_test_…', or the session's client secret in 'Service-Client-Secret'." }
      : { message: "Invalid client secret provided." }
  }
}

/** Confirmed with a method the session does not allow (`allowed_methods`, cards when it names none). */
export class CheckoutMethodNotAllowed extends ServiceFailure("CheckoutMethodNotAllowed", {
  kind: "invalid",
  codes: ["payment_method_not_allowed"],
  description: "The session's `allowed_methods` do not name this payment method"
})<{
  readonly method: string
  readonly allowed: ReadonlyArray<string>
}> {
  get answer(): FailureAnswer {
    return {
      message: `This checkout session takes ${this.allowed.join(", ")}; not '${echoed(this.method)}'.`,
      param: "payment_method.type"
    }
  }
}
