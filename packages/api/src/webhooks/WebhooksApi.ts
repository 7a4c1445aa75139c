import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ListOf } from "@orchestrator/core/domain/Pagination"
import { Identifier } from "@orchestrator/core/domain/Text"
import { DeliveryStatus, ResendDeliveries, ResendResult, WebhookDelivery } from "@orchestrator/core/webhooks/WebhookDelivery"
import { CreateWebhookEndpoint, UpdateWebhookEndpoint, WebhookEndpoint } from "@orchestrator/core/webhooks/WebhookEndpoint"
import { Schema } from "effect"
import { Authorization } from "../Authorization.js"
import { ById, ListQuery } from "../Endpoints.js"
import { OptionalIdempotencyKey } from "../Headers.js"
import { IdempotencyKeyInUse, IdempotencyKeyReused } from "../idempotency/IdempotencyErrors.js"
import { ResourceLimitExceeded } from "../ResourceLimitErrors.js"
import { WebhookDeliveryNotFound, WebhookEndpointNotFound } from "./WebhookErrors.js"

export const WebhookEndpointList = ListOf(WebhookEndpoint).annotations({ identifier: "WebhookEndpointList" })
export const WebhookDeliveryList = ListOf(WebhookDelivery).annotations({ identifier: "WebhookDeliveryList" })

/** What deleting an endpoint answers. */
export const DeletedWebhookEndpoint = Schema.Struct({
  object: Schema.Literal("webhook_endpoint"),
  id: Schema.String,
  deleted: Schema.Literal(true)
}).annotations({ identifier: "DeletedWebhookEndpoint" })

export const DeliveryListQuery = ListQuery({
  status: Schema.optional(DeliveryStatus),
  type: Schema.optional(Identifier),
  endpoint_id: Schema.optional(Identifier)
})

const mutation = <Name extends string, Path extends `/${string}`>(name: Name, path: Path) =>
  HttpApiEndpoint.post(name, path)
    .setHeaders(OptionalIdempotencyKey)
    .addError(IdempotencyKeyInUse)
    .addError(IdempotencyKeyReused)

export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .add(
    mutation("createEndpoint", "/webhooks/endpoints")
      .setPayload(CreateWebhookEndpoint)
      .addSuccess(WebhookEndpoint, { status: 201 })
      .addError(ResourceLimitExceeded)
      .annotate(OpenApi.Summary, "Register a webhook endpoint")
      .annotate(
        OpenApi.Description,
        "The response carries the endpoint's signing `secret`, this once. `enabled_events` empty or `[\"*\"]` " +
          "receives every event. Live-mode URLs must be https and reach a public address. An organization keeps at " +
          "most 16 endpoints per mode."
      )
  )
  .add(
    HttpApiEndpoint.get("listEndpoints", "/webhooks/endpoints")
      .setUrlParams(ListQuery({}))
      .addSuccess(WebhookEndpointList)
      .annotate(OpenApi.Summary, "List webhook endpoints, newest first")
  )
  .add(
    HttpApiEndpoint.get("retrieveEndpoint", "/webhooks/endpoints/:id")
      .setPath(ById)
      .addSuccess(WebhookEndpoint)
      .addError(WebhookEndpointNotFound)
      .annotate(OpenApi.Summary, "Retrieve a webhook endpoint")
  )
  .add(
    HttpApiEndpoint.patch("updateEndpoint", "/webhooks/endpoints/:id")
      .setPath(ById)
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(UpdateWebhookEndpoint)
      .addSuccess(WebhookEndpoint)
      .addError(WebhookEndpointNotFound)
      .addError(IdempotencyKeyInUse)
      .addError(IdempotencyKeyReused)
      .annotate(OpenApi.Summary, "Change a webhook endpoint's URL, events, description or status")
  )
  .add(
    HttpApiEndpoint.del("deleteEndpoint", "/webhooks/endpoints/:id")
      .setPath(ById)
      .addSuccess(DeletedWebhookEndpoint)
      .addError(WebhookEndpointNotFound)
      .annotate(OpenApi.Summary, "Delete a webhook endpoint and its deliveries")
  )
  .add(
    mutation("rotateSecret", "/webhooks/endpoints/:id/rotate-secret")
      .setPath(ById)
      .addSuccess(WebhookEndpoint)
      .addError(WebhookEndpointNotFound)
      .annotate(OpenApi.Summary, "Roll the signing secret")
      .annotate(
        OpenApi.Description,
        "Returns the new secret, this once. For 24 hours every delivery carries two `v1=` signatures, " +
          "one with each secret, so receivers can switch without missing an event."
      )
  )
  .add(
    HttpApiEndpoint.get("listDeliveries", "/webhooks/deliveries")
      .setUrlParams(DeliveryListQuery)
      .addSuccess(WebhookDeliveryList)
      .annotate(OpenApi.Summary, "List webhook deliveries, newest first")
      .annotate(OpenApi.Description, "Deliveries with status `exhausted` are the dead-letter set.")
  )
  .add(
    HttpApiEndpoint.get("retrieveDelivery", "/webhooks/deliveries/:id")
      .setPath(ById)
      .addSuccess(WebhookDelivery)
      .addError(WebhookDeliveryNotFound)
      .annotate(OpenApi.Summary, "Retrieve a webhook delivery with its attempts")
  )
  .add(
    mutation("resendDelivery", "/webhooks/deliveries/:id/resend")
      .setPath(ById)
      .addSuccess(WebhookDelivery)
      .addError(WebhookDeliveryNotFound)
      .annotate(OpenApi.Summary, "Send a delivery again now, whatever its status")
  )
  .add(
    mutation("resendDeliveries", "/webhooks/deliveries/resend")
      // Every filter is optional, so no body at all means the default: the dead-letter set.
      .setPayload(Schema.NullOr(ResendDeliveries))
      .addSuccess(ResendResult)
      .annotate(OpenApi.Summary, "Send again every delivery a filter matches")
      .annotate(
        OpenApi.Description,
        "By default the dead-letter set (`status: exhausted`); narrow it with `endpoint_id`, `type` and " +
          "`created[gte]`. Answers how many were queued."
      )
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Webhooks")
{}
