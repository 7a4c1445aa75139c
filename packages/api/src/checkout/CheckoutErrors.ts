import type * as Domain from "@orchestrator/core/checkout/CheckoutErrors"
import { echoed } from "@orchestrator/core/domain/EchoedText"
import { apiErrors, failWith } from "../ApiError.js"

export const CheckoutErrors = apiErrors({
  CheckoutSessionNotFound: {
    status: 404,
    type: "invalid_request_error",
    codes: ["resource_missing"],
    description: "No checkout session with this id for this key or client secret"
  },
  CheckoutSessionStateConflict: {
    status: 409,
    type: "invalid_request_error",
    codes: ["checkout_session_unexpected_state"],
    description: "The session is not in a status that allows this"
  }
})

const verbs = { confirm: "paid", cancel: "cancelled", reroute: "rerouted" } as const

export const checkoutFailures = {
  CheckoutSessionNotFound: (error: Domain.CheckoutSessionNotFound) =>
    failWith(CheckoutErrors.CheckoutSessionNotFound, { message: `No such checkout session: '${echoed(error.id)}'`, param: "id" }),
  CheckoutSessionStateConflict: (error: Domain.CheckoutSessionStateConflict) =>
    failWith(CheckoutErrors.CheckoutSessionStateConflict, {
      message: `This checkout session is ${error.session.status}; it cannot be ${verbs[error.action]}.`
    })
}
