import type * as Domain from "@orchestrator/core/checkout/CheckoutErrors"
import { echoed } from "@orchestrator/core/domain/EchoedText"
import { ApiError, failWith } from "../ApiError.js"

export class CheckoutSessionNotFound extends ApiError<CheckoutSessionNotFound>()("CheckoutSessionNotFound", {
  status: 404,
  type: "invalid_request_error",
  codes: ["resource_missing"],
  description: "No checkout session with this id for this key or client secret"
}) {
  readonly _tag = "CheckoutSessionNotFound" as const
}

export class CheckoutSessionStateConflict extends ApiError<CheckoutSessionStateConflict>()(
  "CheckoutSessionStateConflict",
  {
    status: 409,
    type: "invalid_request_error",
    codes: ["checkout_session_unexpected_state"],
    description: "The session is not in a status that allows this"
  }
) {
  readonly _tag = "CheckoutSessionStateConflict" as const
}

const verbs = { confirm: "paid", cancel: "cancelled", reroute: "rerouted" } as const

export const checkoutFailures = {
  CheckoutSessionNotFound: (error: Domain.CheckoutSessionNotFound) =>
    failWith(CheckoutSessionNotFound, { message: `No such checkout session: '${echoed(error.id)}'`, param: "id" }),
  CheckoutSessionStateConflict: (error: Domain.CheckoutSessionStateConflict) =>
    failWith(CheckoutSessionStateConflict, {
      message: `This checkout session is ${error.session.status}; it cannot be ${verbs[error.action]}.`
    })
}
