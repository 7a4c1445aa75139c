import { apiErrors } from "./ApiError.js"

/**
 * Answers to requests HTTP itself refuses, before any route sees them (Node's parser, its timeouts).
 * Malformed requests answer `InvalidRequest` with the code `request_malformed`; these are the ones
 * with a status of their own.
 */

export const ProtocolErrors = apiErrors({
  HeadersTooLarge: {
    status: 431,
    type: "invalid_request_error",
    codes: ["headers_too_large"],
    description: "The request line and headers together are over 16 KiB"
  },
  RequestTimeout: {
    status: 408,
    type: "invalid_request_error",
    codes: ["request_timeout"],
    description: "The request's headers or body did not arrive in time"
  },
  MethodNotImplemented: {
    status: 501,
    type: "invalid_request_error",
    codes: ["method_not_supported"],
    description: "The request method is not an HTTP method this service knows"
  }
})

/** Each class by its name, for endpoint declarations and `failWith`. */
export const { HeadersTooLarge, RequestTimeout, MethodNotImplemented } = ProtocolErrors
