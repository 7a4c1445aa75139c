import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  CheckoutMethodNotAllowed,
  CheckoutSession,
  CheckoutSessionNotFound,
  CheckoutSessionPublic,
  CheckoutSessionStateConflict,
  CheckoutSessionStatus,
  ConfirmCheckout,
  CreateCheckoutSession,
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  ListOf,
  NoProviderAvailable,
  optionalField,
  PaymentCustomerNotFound,
  PaymentMethodNotFound,
  ProviderNotUsable,
  RerouteCheckout
} from "@orchestrator/core"
import { Schema } from "effect"
import { apiErrorOf } from "../ApiError.js"
import { Authorization } from "../Authorization.js"
import { ById, listPage, ListQuery } from "../Endpoints.js"
import { OptionalIdempotencyKey, RequiredIdempotencyKey } from "../Headers.js"
import { CheckoutAuthorization, checkoutSecurityRequirements } from "./CheckoutAuthorization.js"

export const CheckoutSessionList = ListOf(CheckoutSession).annotations({ identifier: "CheckoutSessionList" })

/** The client secret may come in the query; no other parameter is taken there. */
const ClientSecretQuery = Schema.Struct({
  client_secret: optionalField(
    Schema.String,
    "The session's `client_secret`, for a browser that cannot send the `Service-Client-Secret` header; it opens the public view only."
  )
})

export const CheckoutSessionListQuery = ListQuery({
  status: optionalField(CheckoutSessionStatus, "Only sessions in this status.")
})

/** What the merchant's server does with its secret key: create sessions and list them. */
export class CheckoutSessionsApi extends HttpApiGroup.make("checkoutSessions")
  .add(
    HttpApiEndpoint.post("create", "/checkout/sessions")
      .setHeaders(RequiredIdempotencyKey)
      .setPayload(CreateCheckoutSession)
      .addSuccess(CheckoutSession, { status: 201 })
      .addError(apiErrorOf(ProviderNotUsable))
      .addError(apiErrorOf(NoProviderAvailable))
      .addError(apiErrorOf(PaymentCustomerNotFound))
      .addError(apiErrorOf(IdempotencyKeyInUse))
      .addError(apiErrorOf(IdempotencyKeyReused))
      .annotate(OpenApi.Summary, "Create a checkout session")
      .annotate(
        OpenApi.Description,
        "Opens a session for one amount that the customer pays in the drop-in or the hosted page, with a card " +
          "or an allowed wallet; after a decline they may try another provider. It expires after `expires_in` " +
          "seconds (default 24 hours). `Idempotency-Key` is required. " +
          "The provider comes from the routing rules unless `provider` forces one. Hand `client_secret` to the " +
          "customer's browser (the drop-in or the hosted page `/checkout/{id}?client_secret=…`)."
      )
  )
  .add(
    listPage("/checkout/sessions", CheckoutSessionListQuery, CheckoutSessionList, "List checkout sessions, newest first")
      .annotate(OpenApi.Description, "The sessions of this key's mode, newest first, in their full view (without client secrets).")
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Checkout sessions")
  .annotate(
    OpenApi.Description,
    "A checkout session is a payment page you do not have to build: create it on your server, hand its " +
      "`client_secret` to the browser, and mount the drop-in (`/v1/checkout/dropin.js`) or send the customer to the " +
      "hosted page `/checkout/{id}`. It goes `open` → `processing` → `complete`, or `payment_failed` (reroute to " +
      "another provider, or cancel), `cancelled`, `expired`. See /docs/guides/checkout."
  )
{}

/** One session's endpoints, for the server key or the session's client secret (public view). */
export class CheckoutSessionApi extends HttpApiGroup.make("checkoutSession")
  .add(
    HttpApiEndpoint.get("retrieve", "/checkout/sessions/:id")
      .setPath(ById)
      .setUrlParams(
        Schema.Struct({
          expand: optionalField(Schema.Literal("payment"), "`payment` includes the session's Payment (server key only)."),
          ...ClientSecretQuery.fields
        }).annotations({ parseOptions: { onExcessProperty: "error" } })
      )
      .addSuccess(Schema.Union(CheckoutSession, CheckoutSessionPublic))
      .addError(apiErrorOf(CheckoutSessionNotFound))
      .annotate(OpenApi.Summary, "Retrieve a checkout session")
      .annotate(
        OpenApi.Description,
        "The full view with the secret key (`expand=payment` includes the Payment); the public view with the " +
          "client secret, in header `Service-Client-Secret` or query `client_secret`."
      )
  )
  .add(
    HttpApiEndpoint.post("confirm", "/checkout/sessions/:id/confirm")
      .setPath(ById)
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(ConfirmCheckout)
      .addSuccess(CheckoutSessionPublic)
      .addError(apiErrorOf(CheckoutSessionNotFound))
      .addError(apiErrorOf(CheckoutSessionStateConflict))
      .addError(apiErrorOf(CheckoutMethodNotAllowed))
      .addError(apiErrorOf(PaymentMethodNotFound))
      .addError(apiErrorOf(IdempotencyKeyInUse))
      .addError(apiErrorOf(IdempotencyKeyReused))
      .annotate(OpenApi.Summary, "Pay an open checkout session with its card form's token or an allowed wallet")
      .annotate(
        OpenApi.Description,
        "Creates the Payment on the session's provider. A rejection answers 200 with status `payment_failed` " +
          "and the failed payment; a 3D Secure challenge leaves it `processing` with `payment.next_action`. A " +
          "redirect method (`{ \"type\": \"paypal\" }`) in `allowed_methods` pays on the connection `ui.wallets` " +
          "names for it, and its approval redirect is `payment.next_action` likewise. A vaulted card (`pm_…`) is " +
          "taken only when it was typed into the card form (`ui.card_form_url`) under this session's client secret; any " +
          "other answers 404 `resource_missing` and the session stays `open`. After a reroute the same `pm_…` pays " +
          "the next provider, without its security code (used by the first authorization only)."
      )
  )
  .add(
    HttpApiEndpoint.post("cancel", "/checkout/sessions/:id/cancel")
      .setPath(ById)
      .setHeaders(OptionalIdempotencyKey)
      .addSuccess(CheckoutSessionPublic)
      .addError(apiErrorOf(CheckoutSessionNotFound))
      .addError(apiErrorOf(CheckoutSessionStateConflict))
      .addError(apiErrorOf(IdempotencyKeyInUse))
      .addError(apiErrorOf(IdempotencyKeyReused))
      .annotate(OpenApi.Summary, "Cancel an open or failed checkout session")
      .annotate(
        OpenApi.Description,
        "Ends a session that is `open` or `payment_failed`; it can no longer be paid. Answers the public view. " +
          "Other statuses answer 409."
      )
  )
  .add(
    HttpApiEndpoint.post("reroute", "/checkout/sessions/:id/reroute")
      .setPath(ById)
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(Schema.NullOr(RerouteCheckout))
      .addSuccess(CheckoutSessionPublic)
      .addError(apiErrorOf(CheckoutSessionNotFound))
      .addError(apiErrorOf(CheckoutSessionStateConflict))
      .addError(apiErrorOf(NoProviderAvailable))
      .addError(apiErrorOf(IdempotencyKeyInUse))
      .addError(apiErrorOf(IdempotencyKeyReused))
      .annotate(OpenApi.Summary, "Reopen a failed checkout session on another provider")
      .annotate(
        OpenApi.Description,
        "Only after a rejection (`payment_failed`); every provider that refused the session is left out. " +
          "422 when no other provider can take it."
      )
  )
  .middleware(CheckoutAuthorization)
  .annotateEndpoints(OpenApi.Override, { security: checkoutSecurityRequirements })
  .prefix("/v1")
  .annotate(OpenApi.Title, "Checkout session (browser)")
  .annotate(
    OpenApi.Description,
    "One session's endpoints, called by the drop-in in the customer's browser with the session's `client_secret` " +
      "(header `Service-Client-Secret` or query `client_secret`), which opens that session only and shows its " +
      "public view; your server may call them with its secret key too."
  )
{}
