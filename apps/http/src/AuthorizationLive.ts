import { HttpServerRequest } from "@effect/platform"
import { failWith } from "@orchestrator/api/ApiError"
import { Authorization } from "@orchestrator/api/Authorization"
import { AuthenticationRequired } from "@orchestrator/api/CommonErrors"
import { Authentication } from "@orchestrator/core/tenancy/Authentication"
import { Effect, Layer } from "effect"

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
      }).pipe(Effect.catchTag("AuthenticationFailed", (error) =>
        failWith(AuthenticationRequired, {
          code: error.reason === "missing" ? "api_key_missing" : "api_key_invalid",
          message: error.reason === "missing"
            ? "No API key provided. Send 'Authorization: Bearer sk_test_…'."
            : "Invalid API key provided."
        })))
  }))
)
