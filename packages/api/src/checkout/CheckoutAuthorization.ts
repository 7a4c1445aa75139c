import { HttpApiMiddleware } from "@effect/platform"
import { AuthenticationFailed, ClientSecretRejected, RateLimited, type Tenant, TooManyFailedAuthentications } from "@orchestrator/core"
import { Context, Schema } from "effect"
import { apiErrorOf } from "../ApiError.js"

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
  failure: Schema.Union(apiErrorOf(AuthenticationFailed), apiErrorOf(ClientSecretRejected), apiErrorOf(RateLimited), apiErrorOf(TooManyFailedAuthentications)),
  provides: CheckoutCaller
}) {}

/**
 * How the OpenAPI document declares these endpoints' credentials: any one of the server key or the
 * client secret, in its header or in the query. The middleware reads them itself (the server key wins
 * when both are sent), so they are declared here rather than through the framework's security schemes,
 * which would try each in turn and answer with the last one's refusal.
 */
export const checkoutSecurityRequirements = [{ bearer: [] }, { checkoutClientSecret: [] }, { checkoutClientSecretQuery: [] }]

const clientSecretDescription = "A checkout session's `client_secret`: it opens that session only, with its public view"

/** Adds the client secret's schemes to the document's components (the bearer key is the framework's). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is edited as the JSON it is
export const withCheckoutSecuritySchemes = (spec: Record<string, any>) => {
  spec.components.securitySchemes = {
    ...spec.components.securitySchemes,
    checkoutClientSecret: { type: "apiKey", in: "header", name: "Service-Client-Secret", description: clientSecretDescription },
    checkoutClientSecretQuery: { type: "apiKey", in: "query", name: "client_secret", description: clientSecretDescription }
  }
  return spec
}
