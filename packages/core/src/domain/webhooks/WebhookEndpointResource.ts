import { Schema } from "effect"
import { field, optionalField } from "../Field.js"
import { Timestamp } from "../Timestamp.js"

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
  status: field(
    EndpointStatus,
    "`active`, or `disabled` (nothing is sent; deliveries wait): by you, or by the service after every delivery to it failed for 3 days."
  ),
  failing_since: field(
    Schema.NullOr(Timestamp),
    "Since when every delivery attempt to it has failed (ISO 8601 UTC), or `null` once one succeeds. After 3 days of failures the service disables it and sends `webhook_endpoint.disabled`."
  ),
  secret: optionalField(Schema.String, "The signing secret (`whsec_…`): only in the answer that creates the endpoint or rotates its secret. Keep it."),
  livemode: field(Schema.Boolean, "`true` for live mode, `false` for test mode."),
  created_at: field(Timestamp, "When it was created (ISO 8601 UTC)."),
  updated_at: field(Timestamp, "When it last changed (ISO 8601 UTC).")
}) {}
