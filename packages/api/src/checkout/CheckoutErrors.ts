import type * as Domain from "@orchestrator/core"
import { echoed } from "@orchestrator/core"
import { apiErrors, failWith, noSuch, notFound } from "../ApiError.js"

export const CheckoutErrors = apiErrors({
  CheckoutSessionNotFound: notFound("checkout session", "this key or client secret"),
  CheckoutSessionStateConflict: {
    status: 409,
    type: "invalid_request_error",
    codes: ["checkout_session_unexpected_state"],
    description: "The session is not in a status that allows this"
  },
  CheckoutMethodNotAllowed: {
    status: 400,
    type: "invalid_request_error",
    codes: ["payment_method_not_allowed"],
    description: "The session's `allowed_methods` do not name this payment method"
  }
})

/** Each class by its name, for endpoint declarations and `failWith`. */
export const { CheckoutMethodNotAllowed, CheckoutSessionNotFound, CheckoutSessionStateConflict } = CheckoutErrors

const verbs = { confirm: "paid", cancel: "cancelled", reroute: "rerouted" } as const

export const checkoutFailures = {
  CheckoutSessionNotFound: noSuch(CheckoutSessionNotFound, "checkout session"),
  CheckoutSessionStateConflict: (error: Domain.CheckoutSessionStateConflict) =>
    failWith(CheckoutSessionStateConflict, {
      message: `This checkout session is ${error.session.status}; it cannot be ${verbs[error.action]}.`
    }),
  CheckoutMethodNotAllowed: (error: Domain.CheckoutMethodNotAllowed) =>
    failWith(CheckoutMethodNotAllowed, {
      message: `This checkout session takes ${error.allowed.join(", ")}; not '${echoed(error.method)}'.`,
      param: "payment_method.type"
    })
}
