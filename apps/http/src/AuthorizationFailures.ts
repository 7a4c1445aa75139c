import { failWith } from "@orchestrator/api/ApiError"
import { AuthenticationRequired, RateLimitExceeded, retryAfterSeconds } from "@orchestrator/api/CommonErrors"
import type { RateLimited } from "@orchestrator/core/limits/RateLimits"
import type { AuthenticationFailed } from "@orchestrator/core/tenancy/Authentication"
import { Effect } from "effect"

/** A key that is missing or unknown, or over its rate, as the API answers it: 401, or 429 with Retry-After. */
export const authorizationFailure = (error: AuthenticationFailed | RateLimited) =>
  error._tag === "AuthenticationFailed"
    ? failWith(AuthenticationRequired, {
      code: error.reason === "missing" ? "api_key_missing" : "api_key_invalid",
      message: error.reason === "missing"
        ? "No API key provided. Send 'Authorization: Bearer sk_test_…'."
        : "Invalid API key provided."
    })
    : failWith(RateLimitExceeded, {
      message: `Too many requests: this key may send ${error.perSecond} a second. Retry after the time in Retry-After.`
    }).pipe(
      Effect.tapError((refused) => Effect.sync(() => retryAfterSeconds.set(refused, Math.max(1, Math.ceil(error.retryAfterMs / 1000)))))
    )
