import { HttpApiMiddleware } from "@effect/platform"
import { AuthenticationFailed, ClientSecretRejected, CurrentTenant, RateLimited, TooManyFailedAuthentications } from "@orchestrator/core"
import { Schema } from "effect"
import { apiErrorOf } from "../ApiError.js"

/**
 * Who may vault a card typed into the service's card form: a browser holding the organization's
 * publishable key (`Authorization: Bearer pk_test_…`), or a checkout session's client secret
 * (`Service-Client-Secret`). Secret keys are refused here: a server vaults cards with
 * `POST /v1/payment_methods`, where raw card data is gated.
 */
export class CardFormAuthorization extends HttpApiMiddleware.Tag<CardFormAuthorization>()("CardFormAuthorization", {
  failure: Schema.Union(apiErrorOf(AuthenticationFailed), apiErrorOf(ClientSecretRejected), apiErrorOf(RateLimited), apiErrorOf(TooManyFailedAuthentications)),
  provides: CurrentTenant
}) {}

/** The card form's endpoint takes either credential; the middleware reads them itself (see `checkoutSecurityRequirements`). */
export const cardFormSecurityRequirements = [{ publishableKey: [] }, { checkoutClientSecret: [] }]

/** Adds the publishable key's scheme to the document's components. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is edited as the JSON it is
export const withCardFormSecurityScheme = (spec: Record<string, any>) => {
  spec.components.securitySchemes = {
    ...spec.components.securitySchemes,
    publishableKey: {
      type: "http",
      scheme: "bearer",
      description: "A publishable key, `pk_test_…` or `pk_live_…`: public, for the card form in a browser; it can only vault a card"
    }
  }
  return spec
}
