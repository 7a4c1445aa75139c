import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { answering, Api } from "@orchestrator/api"
import { CardVault, CurrentTenant, sessionIdOfSecret } from "@orchestrator/core"
import { Effect } from "effect"

/**
 * The checkout session whose client secret authorized the request (`CardFormAuthorizationLive` took
 * it, since no publishable key was sent), or `null`: the card is then the session's alone to pay with.
 */
const checkoutSessionOfRequest = Effect.map(
  HttpServerRequest.HttpServerRequest,
  (request) => (request.headers.authorization ?? "") === "" ? sessionIdOfSecret((request.headers["service-client-secret"] ?? "").trim()) : null
)

/** `POST /v1/card_form/payment_methods`: a card typed into the service's card form, vaulted without the raw-card gate. */
export const CardFormHttpLive = HttpApiBuilder.group(Api, "cardForm", (handlers) =>
  Effect.gen(function*() {
    const vault = yield* CardVault
    return handlers.handle("tokenize", ({ payload }) =>
      Effect.gen(function*() {
        const tenant = yield* CurrentTenant
        const checkoutSessionId = yield* checkoutSessionOfRequest
        return yield* answering(
          // The gate is the raw API's alone: the form's channel never meets it.
          vault.tokenize(tenant, payload, "card_form", { checkoutSessionId }).pipe(Effect.catchTag("RawCardDataDisabled", Effect.die))
        )
      }))
  }))
