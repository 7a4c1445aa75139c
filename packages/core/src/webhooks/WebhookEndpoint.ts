import { Schema } from "effect"
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
  object: Schema.Literal("webhook_endpoint"),
  id: Schema.String,
  url: Schema.String,
  description: Schema.NullOr(Schema.String),
  /** Event types received; `[]` or `["*"]` means every type. */
  enabled_events: Schema.Array(Schema.String),
  status: EndpointStatus,
  secret: Schema.optional(Schema.String),
  livemode: Schema.Boolean,
  created_at: Timestamp,
  updated_at: Timestamp
}) {}

/** An event type the service emits, or `*` for all of them. */
export const EnabledEvent = Text.pipe(
  Schema.filter((type) => type === "*" || (EVENT_TYPES as ReadonlyArray<string>).includes(type) || `unknown event type '${type}'`)
)

/** Every 1..5 000-character URL that parses as http or https; whether it may be used is decided by mode. */
const EndpointUrl = Url.pipe(Schema.minLength(1))

export const CreateWebhookEndpoint = RequestBody("CreateWebhookEndpoint", {
  url: EndpointUrl,
  enabled_events: Schema.optional(Schema.Array(EnabledEvent).pipe(Schema.maxItems(100))),
  description: Schema.optional(BoundedString)
})
export type CreateWebhookEndpoint = typeof CreateWebhookEndpoint.Type

export const UpdateWebhookEndpoint = RequestBody("UpdateWebhookEndpoint", {
  url: Schema.optional(EndpointUrl),
  enabled_events: Schema.optional(Schema.Array(EnabledEvent).pipe(Schema.maxItems(100))),
  description: Schema.optional(Schema.NullOr(BoundedString)),
  status: Schema.optional(EndpointStatus)
})
export type UpdateWebhookEndpoint = typeof UpdateWebhookEndpoint.Type

/** Whether an endpoint receives events of `type`. */
export const subscribesTo = (endpoint: { readonly enabled_events: ReadonlyArray<string> }, type: string) =>
  endpoint.enabled_events.length === 0 || endpoint.enabled_events.includes("*") || endpoint.enabled_events.includes(type)
