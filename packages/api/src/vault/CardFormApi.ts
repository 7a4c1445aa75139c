import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { CardInvalid, CreatePaymentMethod, PaymentMethodResource } from "@orchestrator/core"
import { apiErrorOf } from "../ApiError.js"
import { CardFormAuthorization, cardFormSecurityRequirements } from "./CardFormAuthorization.js"

/** What the service's card form calls from the shopper's browser, on the vault's origin. */
export class CardFormApi extends HttpApiGroup.make("cardForm")
  .add(
    HttpApiEndpoint.post("tokenize", "/card_form/payment_methods")
      .setPayload(CreatePaymentMethod)
      .addSuccess(PaymentMethodResource, { status: 201 })
      .addError(apiErrorOf(CardInvalid))
      .annotate(OpenApi.Summary, "Vault a card typed into the card form (publishable key or client secret)")
      .annotate(
        OpenApi.Description,
        "Called by the service's own card form (`/vault/card-form`), in its frame, on the vault's origin " +
          "(`ORCHESTRATOR_VAULT_ORIGIN` when set): the card is checked as `POST /v1/payment_methods` checks it (Luhn, " +
          "length, expiry, security code) and vaulted, and the form hands your page only the `pm_…` and the masked card. " +
          "Authorized by the organization's publishable key (`pk_test_…`, `pk_live_…`), which can do nothing else, or by " +
          "a checkout session's client secret. Raw card data need not be enabled: your pages never see the number (SAQ A)."
      )
  )
  .middleware(CardFormAuthorization)
  .prefix("/v1")
  .annotateEndpoints(OpenApi.Override, { security: cardFormSecurityRequirements })
  .annotate(OpenApi.Title, "Card form")
  .annotate(
    OpenApi.Description,
    "The card form the service serves for an iframe on your checkout page, and its one endpoint. See /docs/guides/vault."
  )
{}
