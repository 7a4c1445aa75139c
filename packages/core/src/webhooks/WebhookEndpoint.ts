import { Schema } from "effect"
import { field, optionalField } from "../domain/Field.js"
import { RequestBody } from "../domain/RequestBody.js"
import { BoundedString, Text, Url } from "../domain/Text.js"
import { Timestamp } from "../domain/Timestamp.js"
import { EVENT_TYPES } from "../events/Event.js"

export const EndpointStatus = Schema.Literal("active", "disabled")
export type EndpointStatus = typeof EndpointStatus.Type

/**
 * Where a merchant receives events. `secret` signs every delivery; it is part of the response that
 * creates the endpoint or rotates its secret, and of no other.
 */
export class WebhookEndpoint extends Schema.Class<WebhookEndpoint>("WebhookEndpoint")({
  object: field(Schema.Literal("webhook_endpoint"), "Always `webhook_endpoint`."),
  id: field(Schema.String, "The endpoint's id (`whe_…`)."),
  url: field(Schema.String, "Where events are POSTed."),
  description: field(Schema.NullOr(Schema.String), "Your description of it, or `null`."),
  /** Event types received; `[]` or `["*"]` means every type. */
  enabled_events: field(Schema.Array(Schema.String), "The event types it receives; `[]` or `[\"*\"]` means every type."),
  status: field(EndpointStatus, "`active`, or `disabled` (nothing is sent; deliveries wait)."),
  secret: optionalField(Schema.String, "The signing secret (`whsec_…`): only in the answer that creates the endpoint or rotates its secret. Keep it."),
  livemode: field(Schema.Boolean, "`true` for live mode, `false` for test mode."),
  created_at: field(Timestamp, "When it was created (ISO 8601 UTC)."),
  updated_at: field(Timestamp, "When it last changed (ISO 8601 UTC).")
}) {}

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
