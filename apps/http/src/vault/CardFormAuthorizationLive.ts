import { HttpServerRequest } from "@effect/platform"
import { answering, CardFormAuthorization } from "@orchestrator/api"
import { Authentication, CheckoutSessions, ClientSecretRejected, FailedAuthentications, RateLimits } from "@orchestrator/core"
import { Effect, Layer } from "effect"
import { countsAsGuess, throttledByAddress } from "../AuthorizationFailures.js"
import { TrustedProxies } from "../ClientAddress.js"

/**
 * The card form's credential: the publishable key when `Authorization` is sent, else the checkout
 * session's client secret in `Service-Client-Secret`. Refusals count against the client address as
 * any refused key does; each key (or session) has its own rate limit.
 */
export const CardFormAuthorizationLive = Layer.effect(
  CardFormAuthorization,
  Effect.gen(function*() {
    const authentication = yield* Authentication
    const sessions = yield* CheckoutSessions
    const limits = yield* RateLimits
    const throttled = throttledByAddress(yield* FailedAuthentications, yield* TrustedProxies)
    return Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const header = request.headers.authorization ?? ""
      if (header !== "") {
        const token = /^Bearer /i.test(header) ? header.slice(7).trim() : ""
        const { keyId, tenant } = yield* throttled(authentication.identifyPublishable(token), countsAsGuess)
        yield* limits.check(tenant, keyId)
        return tenant
      }
      const secret = (request.headers["service-client-secret"] ?? "").trim()
      if (secret === "") return yield* new ClientSecretRejected({ missing: true })
      const holder = yield* throttled(sessions.authenticate(secret), () => true)
      yield* limits.check(holder.tenant, holder.sessionId)
      return holder.tenant
    }).pipe(answering)
  })
)
