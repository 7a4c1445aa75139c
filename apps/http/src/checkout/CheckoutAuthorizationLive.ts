import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { answering, CheckoutAuthorization } from "@orchestrator/api"
import { Authentication, CheckoutSessions, ClientSecretRejected, FailedAuthentications, RateLimits } from "@orchestrator/core"
import { Effect, Layer } from "effect"
import { countsAsGuess, throttledByAddress } from "../AuthorizationFailures.js"
import { TrustedProxies } from "../ClientAddress.js"

const clientSecretOf = (request: HttpServerRequest.HttpServerRequest): string => {
  const header = request.headers["service-client-secret"]
  if (header !== undefined) return header.trim()
  const query = request.url.indexOf("?")
  return query === -1 ? "" : new URLSearchParams(request.url.slice(query + 1)).get("client_secret") ?? ""
}

/**
 * The server key when one is sent (as everywhere else); otherwise the session's client secret. A
 * secret that opens nothing is refused like an unknown key, whether or not the session exists, and
 * counts against the client address like one.
 */
export const CheckoutAuthorizationLive = Layer.effect(
  CheckoutAuthorization,
  Effect.gen(function*() {
    const authentication = yield* Authentication
    const sessions = yield* CheckoutSessions
    const limits = yield* RateLimits
    const throttled = throttledByAddress(yield* FailedAuthentications, yield* TrustedProxies)
    return Effect.gen(function*() {
      // The drop-in runs on the merchant's pages: any origin may read these answers (no cookies are used).
      yield* HttpApp.appendPreResponseHandler((_, response) => Effect.succeed(HttpServerResponse.setHeader(response, "access-control-allow-origin", "*")))
      const request = yield* HttpServerRequest.HttpServerRequest
      const header = request.headers.authorization ?? ""
      if (header !== "") {
        const token = /^Bearer /i.test(header) ? header.slice(7).trim() : ""
        const { keyId, tenant } = yield* throttled(authentication.identify(token), countsAsGuess)
        yield* limits.check(tenant, keyId)
        return { tenant, clientSessionId: null }
      }
      const secret = clientSecretOf(request)
      if (secret === "") return yield* new ClientSecretRejected({ missing: true })
      const holder = yield* throttled(sessions.authenticate(secret), () => true)
      // Each session's browser gets the rate limit of a key of its own.
      yield* limits.check(holder.tenant, holder.sessionId)
      return { tenant: holder.tenant, clientSessionId: holder.sessionId }
    }).pipe(answering)
  })
)
