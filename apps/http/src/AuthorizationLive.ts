import { HttpServerRequest } from "@effect/platform"
import { Authorization } from "@orchestrator/api/Authorization"
import { Authentication } from "@orchestrator/core/tenancy/Authentication"
import { Effect, Layer } from "effect"
import { authenticationError } from "./ErrorBodies.js"

/** `Authorization: Bearer <key>`; any other scheme counts as no key at all. */
export const AuthorizationLive = Layer.effect(
  Authorization,
  Effect.map(Authentication, (authentication) => ({
    bearer: () =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const header = request.headers.authorization ?? ""
        const token = /^Bearer /i.test(header) ? header.slice(7).trim() : ""
        return yield* authentication.authenticate(token)
      }).pipe(Effect.catchAll((error) => Effect.flatMap(authenticationError(error), Effect.fail)))
  }))
)
