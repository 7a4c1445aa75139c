import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { ListOf } from "@orchestrator/core/domain/Pagination"
import { PathId } from "@orchestrator/core/domain/Text"
import { CreateProviderConnection, ProviderConnectionView, UpdateProviderConnection } from "@orchestrator/core/providers/ProviderConnection"
import { Schema } from "effect"
import { Authorization } from "../Authorization.js"
import { ById, ListQuery, retrieveById } from "../Endpoints.js"
import { OptionalIdempotencyKey } from "../Headers.js"
import { IdempotencyKeyInUse, IdempotencyKeyReused } from "../idempotency/IdempotencyErrors.js"
import { ResourceLimitExceeded } from "../ResourceLimitErrors.js"
import { ConnectionInvalid, ConnectionNameTaken, DefaultProviderInUse, ProviderConnectionNotFound, WebhookUnverified } from "./ProviderErrors.js"

export const ProviderConnectionList = ListOf(ProviderConnectionView).annotations({ identifier: "ProviderConnectionList" })

export const DeletedProviderConnection = Schema.Struct({
  object: Schema.Literal("provider_connection"),
  id: Schema.String,
  deleted: Schema.Literal(true)
}).annotations({ identifier: "DeletedProviderConnection" })

export class ProvidersApi extends HttpApiGroup.make("providers")
  .add(
    HttpApiEndpoint.post("create", "/provider-connections")
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(CreateProviderConnection)
      .addSuccess(ProviderConnectionView, { status: 201 })
      .addError(ConnectionNameTaken)
      .addError(IdempotencyKeyInUse)
      .addError(ConnectionInvalid)
      .addError(ResourceLimitExceeded)
      .addError(IdempotencyKeyReused)
      .annotate(OpenApi.Summary, "Connect a PSP account")
      .annotate(
        OpenApi.Description,
        "`credentials` and `webhook_secret` are write-only: sealed at rest, never shown again. `settings` are the " +
          "connector's own options (the sandbox's: `latency_ms`, `outage`, `failure_rate`, `async_refunds`). " +
          "Give the PSP the `webhook_url` of the answer."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/provider-connections")
      .setUrlParams(ListQuery({}))
      .addSuccess(ProviderConnectionList)
      .annotate(OpenApi.Summary, "List provider connections, newest first")
  )
  .add(
    retrieveById(
      "/provider-connections/:id",
      ProviderConnectionView,
      ProviderConnectionNotFound,
      "Retrieve a provider connection, with its health"
    )
  )
  .add(
    HttpApiEndpoint.patch("update", "/provider-connections/:id")
      .setPath(ById)
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(UpdateProviderConnection)
      .addSuccess(ProviderConnectionView)
      .addError(ProviderConnectionNotFound)
      .addError(DefaultProviderInUse)
      .addError(IdempotencyKeyInUse)
      .addError(ConnectionInvalid)
      .addError(IdempotencyKeyReused)
      .annotate(OpenApi.Summary, "Change a connection's credentials, settings, supported currencies or methods, or status")
  )
  .add(
    HttpApiEndpoint.del("delete", "/provider-connections/:id")
      .setPath(ById)
      .addSuccess(DeletedProviderConnection)
      .addError(ProviderConnectionNotFound)
      .addError(DefaultProviderInUse)
      .annotate(OpenApi.Summary, "Delete a connection that is not the default provider")
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Provider connections")
{}

export const ProviderWebhookReceipt = Schema.Struct({
  received: Schema.NonNegativeInt,
  duplicates: Schema.NonNegativeInt
}).annotations({ identifier: "ProviderWebhookReceipt" })

/** Where PSPs send their webhooks. No API key: the PSP's signature on the raw bytes is what counts. */
export class ProviderWebhooksApi extends HttpApiGroup.make("providerWebhooks")
  .add(
    HttpApiEndpoint.post("receive", "/provider-webhooks/:connection_id")
      .setPath(Schema.Struct({ connection_id: PathId }))
      .setPayload(HttpApiSchema.Uint8Array())
      .addSuccess(ProviderWebhookReceipt)
      .addError(WebhookUnverified)
      .annotate(OpenApi.Summary, "Receive a PSP's webhook for one of your connections")
      .annotate(
        OpenApi.Description,
        "Verified on the exact bytes with the connection's webhook secret, in the PSP's own scheme; stored once per " +
          "PSP event id and answered at once. The worker then applies it. A PSP with an answer of its own gets it " +
          "instead of the JSON receipt: Adyen connections are answered `[accepted]` (text/plain)."
      )
  )
  .prefix("/v1")
  .annotate(OpenApi.Title, "Provider webhooks")
{}
