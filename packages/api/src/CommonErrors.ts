import { apiErrors } from "./ApiError.js"

export const INVALID_REQUEST = "Malformed JSON, a wrong type, a missing or unknown field, an unknown cursor, or a missing Idempotency-Key"

/**
 * Answers the transport itself gives, before or around any operation of the core (whose failures are
 * declared in the core: see `apiErrorOf`).
 */
export const CommonErrors = apiErrors({
  InvalidRequest: { status: 400, type: "invalid_request_error", description: INVALID_REQUEST },
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
    description: "The body is over 1 MiB (a file upload's over 5 MiB and a little)"
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
  RouteNotFound,
  PayloadTooLarge,
  ServiceUnavailable,
  InternalError
} = CommonErrors
