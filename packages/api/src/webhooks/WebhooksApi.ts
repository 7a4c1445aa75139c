import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  CreateWebhookEndpoint,
  DeliveryStatus,
  field,
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  Identifier,
  InvalidCursor,
  ListOf,
  optionalField,
  ResendDeliveries,
  ResendResult,
  ResourceLimitExceeded,
  UpdateWebhookEndpoint,
  WebhookDelivery,
  WebhookDeliveryNotFound,
  WebhookEndpoint,
  WebhookEndpointNotFound,
  WebhookUrlNotAllowed
} from "@orchestrator/core"
import { Schema } from "effect"
import { apiErrorOf } from "../ApiError.js"
import { Authorization } from "../Authorization.js"
import { ById, ListQuery } from "../Endpoints.js"
import { OptionalIdempotencyKey } from "../Headers.js"
import { WEBHOOKS_DESCRIPTION } from "./SignatureScheme.js"

export const WebhookEndpointList = ListOf(WebhookEndpoint).annotations({ identifier: "WebhookEndpointList" })
export const WebhookDeliveryList = ListOf(WebhookDelivery).annotations({ identifier: "WebhookDeliveryList" })

/** What deleting an endpoint answers. */
export const DeletedWebhookEndpoint = Schema.Struct({
  object: field(Schema.Literal("webhook_endpoint"), "Always `webhook_endpoint`."),
  id: field(Schema.String, "The id of the endpoint that was deleted."),
  deleted: field(Schema.Literal(true), "Always `true`.")
}).annotations({ identifier: "DeletedWebhookEndpoint" })

export const DeliveryListQuery = ListQuery({
  status: optionalField(DeliveryStatus, "Only deliveries in this status; `exhausted` is the dead-letter set."),
  type: optionalField(Identifier, "Only deliveries of events of this type, e.g. `payment.succeeded`."),
  endpoint_id: optionalField(Identifier, "Only deliveries to this endpoint (`whe_…`).")
})

const mutation = <Name extends string, Path extends `/${string}`>(name: Name, path: Path) =>
  HttpApiEndpoint.post(name, path)
    .setHeaders(OptionalIdempotencyKey)
    .addError(apiErrorOf(IdempotencyKeyInUse))
    .addError(apiErrorOf(IdempotencyKeyReused))

export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .add(
    mutation("createEndpoint", "/webhooks/endpoints")
      .setPayload(CreateWebhookEndpoint)
      .addSuccess(WebhookEndpoint, { status: 201 })
      .addError(apiErrorOf(ResourceLimitExceeded))
      .addError(apiErrorOf(WebhookUrlNotAllowed))
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
      .addError(apiErrorOf(InvalidCursor))
      .annotate(OpenApi.Summary, "List webhook endpoints, newest first")
      .annotate(OpenApi.Description, "The endpoints of this key's mode, newest first. Secrets are never shown again.")
  )
  .add(
    HttpApiEndpoint.get("retrieveEndpoint", "/webhooks/endpoints/:id")
      .setPath(ById)
      .addSuccess(WebhookEndpoint)
      .addError(apiErrorOf(WebhookEndpointNotFound))
      .annotate(OpenApi.Summary, "Retrieve a webhook endpoint")
      .annotate(OpenApi.Description, "One endpoint: its URL, the events it receives and its status (without its secret).")
  )
  .add(
    HttpApiEndpoint.patch("updateEndpoint", "/webhooks/endpoints/:id")
      .setPath(ById)
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(UpdateWebhookEndpoint)
      .addSuccess(WebhookEndpoint)
      .addError(apiErrorOf(WebhookEndpointNotFound))
      .addError(apiErrorOf(WebhookUrlNotAllowed))
      .addError(apiErrorOf(IdempotencyKeyInUse))
      .addError(apiErrorOf(IdempotencyKeyReused))
      .annotate(OpenApi.Summary, "Change a webhook endpoint's URL, events, description or status")
      .annotate(
        OpenApi.Description,
        "Changes only the fields sent. `status: disabled` stops sending (deliveries wait until it is `active` " +
          "again or they are resent); the secret stays the same (rotate it with `rotate-secret`)."
      )
  )
  .add(
    HttpApiEndpoint.del("deleteEndpoint", "/webhooks/endpoints/:id")
      .setPath(ById)
      .addSuccess(DeletedWebhookEndpoint)
      .addError(apiErrorOf(WebhookEndpointNotFound))
      .annotate(OpenApi.Summary, "Delete a webhook endpoint and its deliveries")
      .annotate(OpenApi.Description, "Stops every delivery to it at once and deletes its delivery history. Events stay.")
  )
  .add(
    mutation("rotateSecret", "/webhooks/endpoints/:id/rotate-secret")
      .setPath(ById)
      .addSuccess(WebhookEndpoint)
      .addError(apiErrorOf(WebhookEndpointNotFound))
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
      .addError(apiErrorOf(InvalidCursor))
      .annotate(OpenApi.Summary, "List webhook deliveries, newest first")
      .annotate(OpenApi.Description, "Deliveries with status `exhausted` are the dead-letter set.")
  )
  .add(
    HttpApiEndpoint.get("retrieveDelivery", "/webhooks/deliveries/:id")
      .setPath(ById)
      .addSuccess(WebhookDelivery)
      .addError(apiErrorOf(WebhookDeliveryNotFound))
      .annotate(OpenApi.Summary, "Retrieve a webhook delivery with its attempts")
      .annotate(
        OpenApi.Description,
        "One delivery with every attempt: when, the status your endpoint answered, the error, how long it took " +
          "and the first KiB of its answer. Use it to see why a receiver fails."
      )
  )
  .add(
    mutation("resendDelivery", "/webhooks/deliveries/:id/resend")
      .setPath(ById)
      .addSuccess(WebhookDelivery)
      .addError(apiErrorOf(WebhookDeliveryNotFound))
      .annotate(OpenApi.Summary, "Send a delivery again now, whatever its status")
      .annotate(
        OpenApi.Description,
        "Puts the delivery back to `pending` and attempts it at once (an `exhausted` one gets a fresh schedule); " +
          "the answer is the delivery, `pending`."
      )
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
  .annotate(OpenApi.Description, WEBHOOKS_DESCRIPTION)
{}
