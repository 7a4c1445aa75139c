import { ApiError } from "./ApiError.js"

/**
 * Answers to requests HTTP itself refuses, before any route sees them (Node's parser, its timeouts).
 * Malformed requests answer `InvalidRequest` with the code `request_malformed`; these are the ones
 * with a status of their own.
 */

export class HeadersTooLarge extends ApiError<HeadersTooLarge>()("HeadersTooLarge", {
  status: 431,
  type: "invalid_request_error",
  codes: ["headers_too_large"],
  description: "The request line and headers together are over 16 KiB"
}) {
  readonly _tag = "HeadersTooLarge" as const
}

export class RequestTimeout extends ApiError<RequestTimeout>()("RequestTimeout", {
  status: 408,
  type: "invalid_request_error",
  codes: ["request_timeout"],
  description: "The request's headers or body did not arrive in time"
}) {
  readonly _tag = "RequestTimeout" as const
}

export class MethodNotImplemented extends ApiError<MethodNotImplemented>()("MethodNotImplemented", {
  status: 501,
  type: "invalid_request_error",
  codes: ["method_not_supported"],
  description: "The request method is not an HTTP method this service knows"
}) {
  readonly _tag = "MethodNotImplemented" as const
}
