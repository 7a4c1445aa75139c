import { HttpServerRequest } from "@effect/platform"
import { failWith } from "@orchestrator/api/ApiError"
import { AuthenticationRequired, RateLimitExceeded, retryAfterSeconds } from "@orchestrator/api/CommonErrors"
import type { FailedAuthentications, TooManyFailedAuthentications } from "@orchestrator/core/limits/FailedAuthentications"
import type { RateLimited } from "@orchestrator/core/limits/RateLimits"
import type { AuthenticationFailed } from "@orchestrator/core/tenancy/Authentication"
import { Effect } from "effect"
import { clientAddressOf } from "./ClientAddress.js"
import type { TrustedProxyList } from "./TrustedProxies.js"

const withRetryAfter = (retryAfterMs: number) => <A, E extends object, R>(refusal: Effect.Effect<A, E, R>) =>
  Effect.tapError(refusal, (refused) => Effect.sync(() => retryAfterSeconds.set(refused, Math.max(1, Math.ceil(retryAfterMs / 1000)))))

/**
 * A key that is missing or unknown, over its rate, or an address past its failed authentications,
 * as the API answers it: 401, or 429 with Retry-After.
 */
export const authorizationFailure = (error: AuthenticationFailed | RateLimited | TooManyFailedAuthentications) => {
  switch (error._tag) {
    case "AuthenticationFailed":
      return failWith(AuthenticationRequired, {
        code: error.reason === "missing" ? "api_key_missing" : "api_key_invalid",
        message: error.reason === "missing"
          ? "No API key provided. Send 'Authorization: Bearer sk_test_…'."
          : "Invalid API key provided."
      })
    case "RateLimited":
      return failWith(RateLimitExceeded, {
        message: `Too many requests: this key may send ${error.perSecond} a second. Retry after the time in Retry-After.`
      }).pipe(withRetryAfter(error.retryAfterMs))
    case "TooManyFailedAuthentications":
      return failWith(RateLimitExceeded, {
        code: "too_many_failed_authentications",
        message: "Too many failed authentications from this address. Retry after the time in Retry-After."
      }).pipe(withRetryAfter(error.retryAfterMs))
  }
}

/**
 * Runs an authentication for the request's client address: refused at once (429) when the address
 * has no failed authentication left, before any key is looked at; each failure `counts` says is one
 * (a key or secret presented and refused, not a missing one) is counted against the address.
 */
export const throttledByAddress =
  (failures: FailedAuthentications["Type"], proxies: TrustedProxyList) => <A, E, R>(attempt: Effect.Effect<A, E, R>, counts: (error: E) => boolean) =>
    Effect.gen(function*() {
      const address = clientAddressOf(yield* HttpServerRequest.HttpServerRequest, proxies)
      yield* failures.admit(address)
      return yield* attempt.pipe(Effect.tapError((error) => counts(error) ? failures.record(address) : Effect.void))
    })
