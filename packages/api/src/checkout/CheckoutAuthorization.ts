import { HttpApiMiddleware } from "@effect/platform"
import type { Tenant } from "@orchestrator/core/domain/Tenant"
import { Context, Schema } from "effect"
import { AuthenticationRequired, RateLimitExceeded } from "../CommonErrors.js"

/**
 * Who calls a checkout session's browser endpoints: the merchant's server (its secret key) or a
 * customer's browser holding the session's client secret, which opens that one session only.
 */
export class CheckoutCaller extends Context.Tag("api/CheckoutCaller")<CheckoutCaller, {
  readonly tenant: Tenant
  /** The session a client secret opens; `null` for the server key, which opens them all. */
  readonly clientSessionId: string | null
}>() {}

/**
 * `Authorization: Bearer sk_…`, else the client secret in `Service-Client-Secret` or the query's
 * `client_secret` (seed, Authentication 2–3).
 */
export class CheckoutAuthorization extends HttpApiMiddleware.Tag<CheckoutAuthorization>()("CheckoutAuthorization", {
  failure: Schema.Union(AuthenticationRequired, RateLimitExceeded),
  provides: CheckoutCaller
}) {}
