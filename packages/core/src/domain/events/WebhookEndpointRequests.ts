import { Schema } from "effect"
import { field, optionalField } from "../Field.js"
import { RequestBody } from "../RequestBody.js"
import { BoundedString, Text, Url } from "../Text.js"
import { EndpointStatus } from "../webhooks/WebhookEndpointResource.js"
import { EVENT_TYPES } from "./Event.js"

// What a merchant asks of a webhook endpoint, beside the catalogue of the event types it subscribes to
// (the endpoint resource itself is in domain/webhooks: the catalogue has an event about it).

/** An event type the service emits, or `*` for all of them. */
export const EnabledEvent = Text.pipe(
  Schema.filter((type) => type === "*" || (EVENT_TYPES as ReadonlyArray<string>).includes(type) || `unknown event type '${type}'`)
)

/** Every 1..5 000-character URL that parses as http or https; whether it may be used is decided by mode. */
const EndpointUrl = Url.pipe(Schema.minLength(1))

export const CreateWebhookEndpoint = RequestBody("CreateWebhookEndpoint", {
  url: field(EndpointUrl, "Where to POST events: https and a public address in live mode."),
  enabled_events: optionalField(
    Schema.Array(EnabledEvent).pipe(Schema.maxItems(100)),
    "The event types to receive (see the catalogue under Webhooks); `[]`, `[\"*\"]` or absent: every type."
  ),
  description: optionalField(BoundedString, "Your description of it.")
})
export type CreateWebhookEndpoint = typeof CreateWebhookEndpoint.Type

export const UpdateWebhookEndpoint = RequestBody("UpdateWebhookEndpoint", {
  url: optionalField(EndpointUrl, "A new address."),
  enabled_events: optionalField(Schema.Array(EnabledEvent).pipe(Schema.maxItems(100)), "The event types to receive; they replace the old list."),
  description: optionalField(Schema.NullOr(BoundedString), "Your description of it; `null` to clear it."),
  status: optionalField(EndpointStatus, "`disabled` stops sending (deliveries wait); `active` resumes.")
})
export type UpdateWebhookEndpoint = typeof UpdateWebhookEndpoint.Type

/** Whether an endpoint receives events of `type`. */
export const subscribesTo = (endpoint: { readonly enabled_events: ReadonlyArray<string> }, type: string) =>
  endpoint.enabled_events.length === 0 || endpoint.enabled_events.includes("*") || endpoint.enabled_events.includes(type)
