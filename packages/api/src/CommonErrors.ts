import { echoed } from "@orchestrator/core/domain/EchoedText"
import type { InvalidCursor } from "@orchestrator/core/domain/Pagination"
import { apiErrors, failWith } from "./ApiError.js"

export const INVALID_REQUEST = "Malformed JSON, a wrong type, a missing or unknown field, an unknown cursor, or a missing Idempotency-Key"

export const CommonErrors = apiErrors({
  InvalidRequest: { status: 400, type: "invalid_request_error", description: INVALID_REQUEST },
  AuthenticationRequired: {
    status: 401,
    type: "authentication_error",
    codes: ["api_key_missing", "api_key_invalid"],
    description: "Missing, malformed, unknown or revoked API key"
  },
  RateLimitExceeded: {
    status: 429,
    type: "rate_limit_error",
    codes: ["rate_limit_exceeded", "too_many_failed_authentications"],
    description: "Too many requests with this API key, too many failed authentications from this client " +
      "address, or too many PSP webhooks for one connection; `Retry-After` says when to try again"
  },
  RouteNotFound: {
    status: 404,
    type: "invalid_request_error",
    codes: ["route_not_found"],
    description: "No such endpoint"
  },
  PayloadTooLarge: {
    status: 413,
    type: "invalid_request_error",
    codes: ["payload_too_large"],
    description: "The body is over 1 MiB"
  },
  ServiceUnavailable: {
    status: 503,
    type: "api_error",
    codes: ["service_unavailable"],
    description: "The database could not be reached (a restart, a failover); nothing was done twice: retry with the same Idempotency-Key"
  },
  InternalError: {
    status: 500,
    type: "api_error",
    codes: ["internal_error"],
    description: "A bug on our side; it is logged with the request id"
  }
})

/** Each class by its name, for endpoint declarations and `failWith`. */
export const {
  InvalidRequest,
  AuthenticationRequired,
  RateLimitExceeded,
  RouteNotFound,
  PayloadTooLarge,
  ServiceUnavailable,
  InternalError
} = CommonErrors

/** Seconds until a refused key may try again, by the error that refused it: the `Retry-After` header. */
export const retryAfterSeconds = new WeakMap<object, number>()

/** Every list: a `starting_after` the caller cannot see. */
export const listFailures = {
  InvalidCursor: (error: InvalidCursor) =>
    failWith(InvalidRequest, {
      code: "parameter_invalid",
      message: `No object '${echoed(error.cursor)}' to start after.`,
      param: "starting_after"
    })
}
