import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  ConnectionInvalid,
  ConnectionNameTaken,
  connectionTypesNamed,
  CreateProviderConnection,
  DefaultProviderInUse,
  field,
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  InvalidCursor,
  ListOf,
  PathId,
  ProviderConnectionNotFound,
  ProviderConnectionView,
  ProviderWebhookRejected,
  ProviderWebhookThrottled,
  ResourceLimitExceeded,
  UpdateProviderConnection
} from "@orchestrator/core"
import { Schema } from "effect"
import { apiErrorOf } from "../ApiError.js"
import { Authorization } from "../Authorization.js"
import { ById, ListQuery, retrieveById } from "../Endpoints.js"
import { OptionalIdempotencyKey } from "../Headers.js"

export const ProviderConnectionList = ListOf(ProviderConnectionView).annotations({ identifier: "ProviderConnectionList" })

export const DeletedProviderConnection = Schema.Struct({
  object: field(Schema.Literal("provider_connection"), "Always `provider_connection`."),
  id: field(Schema.String, "The id of the connection that was deleted."),
  deleted: field(Schema.Literal(true), "Always `true`.")
}).annotations({ identifier: "DeletedProviderConnection" })

export class ProvidersApi extends HttpApiGroup.make("providers")
  .add(
    HttpApiEndpoint.post("create", "/provider-connections")
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(CreateProviderConnection)
      .addSuccess(ProviderConnectionView, { status: 201 })
      .addError(apiErrorOf(ConnectionNameTaken))
      .addError(apiErrorOf(IdempotencyKeyInUse))
      .addError(apiErrorOf(ConnectionInvalid))
      .addError(apiErrorOf(ResourceLimitExceeded))
      .addError(apiErrorOf(IdempotencyKeyReused))
      .annotate(OpenApi.Summary, "Connect a PSP account")
      .annotate(
        OpenApi.Description,
        `Adds an account at a PSP (\`type\`: ${connectionTypesNamed()}) under a ` +
          "`name` that payments, routing rules and checkout sessions use as `provider`. The sandbox type is refused " +
          "in live mode. " +
          "`credentials` and `webhook_secret` are write-only: sealed at rest, never shown again. `settings` are the " +
          "connector's own options (the sandbox's: `latency_ms`, `outage`, `failure_rate`, `async_refunds`). " +
          "Give the PSP the `webhook_url` of the answer."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/provider-connections")
      .setUrlParams(ListQuery({}))
      .addSuccess(ProviderConnectionList)
      .addError(apiErrorOf(InvalidCursor))
      .annotate(OpenApi.Summary, "List provider connections, newest first")
      .annotate(OpenApi.Description, "The connections of this key's mode, newest first, with their health; never their credentials.")
  )
  .add(
    retrieveById(
      "/provider-connections/:id",
      ProviderConnectionView,
      ProviderConnectionNotFound,
      "Retrieve a provider connection, with its health"
    ).annotate(
      OpenApi.Description,
      "One connection: its type, status (`error` while its circuit is open), last error, supported currencies " +
        "and methods, the `webhook_url` to give the PSP, and how its recent calls fared."
    )
  )
  .add(
    HttpApiEndpoint.patch("update", "/provider-connections/:id")
      .setPath(ById)
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(UpdateProviderConnection)
      .addSuccess(ProviderConnectionView)
      .addError(apiErrorOf(ProviderConnectionNotFound))
      .addError(apiErrorOf(DefaultProviderInUse))
      .addError(apiErrorOf(IdempotencyKeyInUse))
      .addError(apiErrorOf(ConnectionInvalid))
      .addError(apiErrorOf(IdempotencyKeyReused))
      .annotate(OpenApi.Summary, "Change a connection's credentials, settings, supported currencies or methods, or status")
      .annotate(
        OpenApi.Description,
        "Changes only the fields sent; new `credentials` replace the old ones whole. `status: disabled` takes the " +
          "connection out of routing (the default provider cannot be disabled: choose another default first)."
      )
  )
  .add(
    HttpApiEndpoint.del("delete", "/provider-connections/:id")
      .setPath(ById)
      .addSuccess(DeletedProviderConnection)
      .addError(apiErrorOf(ProviderConnectionNotFound))
      .addError(apiErrorOf(DefaultProviderInUse))
      .annotate(OpenApi.Summary, "Delete a connection that is not the default provider")
      .annotate(
        OpenApi.Description,
        "Deletes the connection and its sealed credentials; its payments stay, and its name stays taken. The " +
          "default provider cannot be deleted: choose another default first (`PATCH /v1/organization`)."
      )
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Provider connections")
  .annotate(
    OpenApi.Description,
    "A provider connection is one account of yours at a PSP (Stripe, Adyen, Checkout.com, PayPal, Mollie, or the " +
      "built-in sandbox), with its credentials sealed at rest. Its `name` is what `provider` means everywhere. A " +
      "connection whose calls keep failing opens its circuit (`status: error`, event `provider_connection.error`) " +
      "and routing skips it until a trial call succeeds. See going live at /docs/guides/going-live."
  )
{}

export const ProviderWebhookReceipt = Schema.Struct({
  received: field(Schema.NonNegativeInt, "How many PSP events of this delivery were stored for the worker to apply."),
  duplicates: field(Schema.NonNegativeInt, "How many were already received before (same PSP event id) and ignored.")
}).annotations({ identifier: "ProviderWebhookReceipt" })

/** Where PSPs send their webhooks. No API key: the PSP's signature on the raw bytes is what counts. */
export class ProviderWebhooksApi extends HttpApiGroup.make("providerWebhooks")
  .add(
    HttpApiEndpoint.post("receive", "/provider-webhooks/:connection_id")
      .setPath(Schema.Struct({ connection_id: field(PathId, "The connection (`pcn_…`) whose PSP sends the webhook.") }))
      .setPayload(HttpApiSchema.Uint8Array())
      .addSuccess(ProviderWebhookReceipt)
      .addError(apiErrorOf(ProviderWebhookRejected))
      .addError(apiErrorOf(ProviderWebhookThrottled))
      .annotate(OpenApi.Summary, "Receive a PSP's webhook for one of your connections")
      .annotate(
        OpenApi.Description,
        "Verified on the exact bytes with the connection's webhook secret, in the PSP's own scheme; stored once per " +
          "PSP event id and answered at once. The worker then applies it. A PSP with an answer of its own gets it " +
          "instead of the JSON receipt: Adyen connections are answered `[accepted]` (text/plain). " +
          "Where reading a webhook means asking the PSP (Mollie's payment, PayPal's signature check), each " +
          "connection takes 100 at once and then 10 a second, answering 429 with `Retry-After` past that before " +
          "asking anything; a repeat of an event already stored, or of a payment id the PSP already disowned, is " +
          "answered without asking again."
      )
  )
  .prefix("/v1")
  .annotate(OpenApi.Title, "Provider webhooks")
  .annotate(
    OpenApi.Description,
    "Where your PSPs send their own webhooks (3D Secure results, refunds, subscription renewals). Each " +
      "connection's `webhook_url` points here; you configure it at the PSP, you never call it yourself. No API " +
      "key: the PSP's signature, checked with the connection's `webhook_secret`, is what counts."
  )
{}
