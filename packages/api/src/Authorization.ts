import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import { AuthenticationFailed, CurrentTenant, RateLimited, TooManyFailedAuthentications } from "@orchestrator/core"
import { Schema } from "effect"
import { apiErrorOf } from "./ApiError.js"

/**
 * `Authorization: Bearer sk_test_…` or `sk_live_…`: the key decides the organization and the mode.
 * Each key has a rate limit (decisions §13): past it, 429 with `Retry-After`.
 */
export class Authorization extends HttpApiMiddleware.Tag<Authorization>()("Authorization", {
  failure: Schema.Union(apiErrorOf(AuthenticationFailed), apiErrorOf(RateLimited), apiErrorOf(TooManyFailedAuthentications)),
  provides: CurrentTenant,
  security: {
    bearer: HttpApiSecurity.bearer.pipe(
      HttpApiSecurity.annotate(OpenApi.Description, "A secret API key: `sk_test_…` for test mode, `sk_live_…` for live mode")
    )
  }
}) {}
