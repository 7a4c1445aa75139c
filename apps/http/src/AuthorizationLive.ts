import { HttpServerRequest } from "@effect/platform"
import { Authorization } from "@orchestrator/api/Authorization"
import { RateLimits } from "@orchestrator/core/limits/RateLimits"
import { Authentication } from "@orchestrator/core/tenancy/Authentication"
import { Effect, Layer } from "effect"
import { authorizationFailure } from "./AuthorizationFailures.js"

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
        }).pipe(Effect.catchTags({ AuthenticationFailed: authorizationFailure, RateLimited: authorizationFailure }))
    }
  })
)
