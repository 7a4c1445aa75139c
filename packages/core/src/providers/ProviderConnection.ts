import { Schema } from "effect"
import { Timestamp } from "../domain/Timestamp.js"

export const ConnectionStatus = Schema.Literal("active", "error", "disabled")
export type ConnectionStatus = typeof ConnectionStatus.Type

/**
 * A PSP account of an organization. `name` is what requests and payments call
 * `provider`; credentials and the webhook secret are write-only and never part of this object.
 */
export class ProviderConnection extends Schema.Class<ProviderConnection>("ProviderConnection")({
  object: Schema.Literal("provider_connection"),
  id: Schema.String,
  name: Schema.String,
  type: Schema.String,
  status: ConnectionStatus,
  last_error: Schema.NullOr(Schema.String),
  /** `null` means every currency the connector can handle. */
  supported_currencies: Schema.NullOr(Schema.Array(Schema.String)),
  supported_methods: Schema.NullOr(Schema.Array(Schema.String)),
  /** Connector-specific knobs, e.g. the sandbox's latency, outage and failure-rate injection. */
  settings: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  livemode: Schema.Boolean,
  created_at: Timestamp,
  updated_at: Timestamp
}) {}

export const supports = (connection: ProviderConnection, currency: string, method: string): boolean =>
  (connection.supported_currencies === null || connection.supported_currencies.includes(currency)) &&
  (connection.supported_methods === null || connection.supported_methods.includes(method))
