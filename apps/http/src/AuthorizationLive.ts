import { HttpServerRequest } from "@effect/platform"
import { failWith } from "@orchestrator/api/ApiError"
import { Authorization } from "@orchestrator/api/Authorization"
import { AuthenticationRequired, RateLimitExceeded, retryAfterSeconds } from "@orchestrator/api/CommonErrors"
import { RateLimits } from "@orchestrator/core/limits/RateLimits"
import { Authentication } from "@orchestrator/core/tenancy/Authentication"
import { Effect, Layer } from "effect"

/** `Authorization: Bearer <key>`; any other scheme counts as no key at all. Then the key's rate limit. */
export const AuthorizationLive = Layer.effect(
  Authorization,
  Effect.gen(function*() {
    const authentication = yield* Authentication
    const limits = yield* RateLimits
    return {
      bearer: () =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const header = request.headers.authorization ?? ""
          const token = /^Bearer /i.test(header) ? header.slice(7).trim() : ""
          const { keyId, tenant } = yield* authentication.identify(token)
          yield* limits.check(tenant, keyId)
          return tenant
        }).pipe(Effect.catchTags({
          AuthenticationFailed: (error) =>
            failWith(AuthenticationRequired, {
              code: error.reason === "missing" ? "api_key_missing" : "api_key_invalid",
              message: error.reason === "missing"
                ? "No API key provided. Send 'Authorization: Bearer sk_test_…'."
                : "Invalid API key provided."
            }),
          RateLimited: ({ perSecond, retryAfterMs }) =>
            failWith(RateLimitExceeded, {
              message: `Too many requests: this key may send ${perSecond} a second. Retry after the time in Retry-After.`
            }).pipe(Effect.tapError((error) => Effect.sync(() => retryAfterSeconds.set(error, Math.max(1, Math.ceil(retryAfterMs / 1000))))))
        }))
    }
  })
)
