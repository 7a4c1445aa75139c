import type { FailureKind } from "@orchestrator/core"
import { Schema } from "effect"

/** The family of an error, in its body's `type`: each status has one. */
export const ErrorType = Schema.Literal(
  "invalid_request_error",
  "authentication_error",
  "idempotency_error",
  "payment_error",
  "rate_limit_error",
  "provider_error",
  "api_error"
)
export type ErrorType = typeof ErrorType.Type

/** How the API answers each kind of failure the core declares: one status and one error `type` per kind. */
export const FAILURE_KINDS: { readonly [Kind in FailureKind]: { readonly status: number; readonly type: ErrorType } } = {
  invalid: { status: 400, type: "invalid_request_error" },
  unauthenticated: { status: 401, type: "authentication_error" },
  refused: { status: 402, type: "payment_error" },
  not_found: { status: 404, type: "invalid_request_error" },
  conflict: { status: 409, type: "invalid_request_error" },
  key_in_use: { status: 409, type: "idempotency_error" },
  unprocessable: { status: 422, type: "invalid_request_error" },
  key_reused: { status: 422, type: "idempotency_error" },
  rate_limited: { status: 429, type: "rate_limit_error" },
  provider_unavailable: { status: 502, type: "provider_error" },
  provider_timeout: { status: 504, type: "provider_error" }
}
