import { HttpServerRequest } from "@effect/platform"
import { answering, Authorization } from "@orchestrator/api"
import { annotateSpan, Authentication, FailedAuthentications, RateLimits } from "@orchestrator/core"
import { Effect, Layer } from "effect"
import { countsAsGuess, throttledByAddress } from "./AuthorizationFailures.js"
import { TrustedProxies } from "./ClientAddress.js"

/**
 * `Authorization: Bearer <key>`; any other scheme counts as no key at all. Then the key's rate limit.
 * A refused key counts against the client address; past its limit the address gets 429 at once.
 */
export const AuthorizationLive = Layer.effect(
  Authorization,
  Effect.gen(function*() {
    const authentication = yield* Authentication
    const limits = yield* RateLimits
    const throttled = throttledByAddress(yield* FailedAuthentications, yield* TrustedProxies)
    return {
      bearer: () =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const header = request.headers.authorization ?? ""
          const token = /^Bearer /i.test(header) ? header.slice(7).trim() : ""
          const { keyId, tenant } = yield* throttled(authentication.identify(token), countsAsGuess)
          // The request's span says whose it is (ids only, never the key), rate-limited or not.
          yield* annotateSpan({ "organization.id": tenant.organizationId, "organization.livemode": tenant.livemode })
          yield* limits.check(tenant, keyId)
          return tenant
        }).pipe(answering)
    }
  })
)
