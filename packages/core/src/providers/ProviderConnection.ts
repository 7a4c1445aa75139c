import { Schema } from "effect"
import { Currency } from "../domain/Currency.js"
import { RequestBody } from "../domain/RequestBody.js"
import { BoundedString, Text, Url } from "../domain/Text.js"
import { Timestamp } from "../domain/Timestamp.js"

export const ConnectionStatus = Schema.Literal("active", "error", "disabled")
export type ConnectionStatus = typeof ConnectionStatus.Type

/**
 * A PSP account of an organization. `name` is what requests and payments call `provider`.
 * Credentials and the webhook secret are write-only: sealed at rest, never part of this object.
 * `status` is `error` while its circuit is open: too many calls in a row failed to reach the PSP.
 */
export class ProviderConnection extends Schema.Class<ProviderConnection>("ProviderConnection")({
  object: Schema.Literal("provider_connection"),
  id: Schema.String,
  name: Schema.String,
  /** What shoppers are told this PSP is called (hosted checkout, drop-in); unset: "the payment provider". */
  display_name: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  type: Schema.String,
  status: ConnectionStatus,
  last_error: Schema.NullOr(Schema.String),
  /** `null` means every currency the connector can handle. */
  supported_currencies: Schema.NullOr(Schema.Array(Schema.String)),
  supported_methods: Schema.NullOr(Schema.Array(Schema.String)),
  /** Connector-specific knobs, e.g. the sandbox's latency, outage and failure-rate injection. */
  settings: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  /** Where the connector sends its calls, when not the PSP's own address (a proxy, a local fake). */
  base_url: Schema.NullOr(Schema.String),
  /** Calls in a row that could not reach the PSP; a success sets it back to 0. */
  consecutive_failures: Schema.NonNegativeInt,
  /** While the circuit is open: from when one trial call may go through to decide whether it closes. */
  circuit_retry_at: Schema.NullOr(Timestamp),
  livemode: Schema.Boolean,
  created_at: Timestamp,
  updated_at: Timestamp
}) {}

type ConnectionFields = ConstructorParameters<typeof ProviderConnection>[0]

/**
 * A connection as it starts: active, no failures, no limits of its own, the connector's defaults;
 * `fields` over them (`updated_at` is `created_at` unless given).
 */
export const freshConnection = (
  fields: Pick<ConnectionFields, "id" | "name" | "type" | "livemode" | "created_at"> & Partial<ConnectionFields>
) =>
  new ProviderConnection({
    object: "provider_connection",
    status: "active",
    last_error: null,
    supported_currencies: null,
    supported_methods: null,
    settings: {},
    base_url: null,
    consecutive_failures: 0,
    circuit_retry_at: null,
    updated_at: fields.created_at,
    ...fields
  })

/** A connection as the API shows it: with the address its PSP should send webhooks to. */
export const ProviderConnectionView = Schema.Struct({
  ...ProviderConnection.fields,
  /** Configure this at the PSP: where it sends its webhooks for this connection. */
  webhook_url: Schema.String
}).annotations({ identifier: "ProviderConnection" })
export type ProviderConnectionView = typeof ProviderConnectionView.Type

export const supports = (connection: ProviderConnection, currency: string, method: string): boolean =>
  (connection.supported_currencies === null || connection.supported_currencies.includes(currency)) &&
  (connection.supported_methods === null || connection.supported_methods.includes(method))

/** What requests call a connection: lower-case letters, digits, `_` and `-`, up to 64. */
export const ConnectionName = Schema.String.pipe(
  Schema.pattern(/^[a-z0-9][a-z0-9_-]{0,63}$/, {
    message: () => "must be 1 to 64 lower-case letters, digits, '_' or '-', starting with a letter or digit"
  })
)

const Credentials = Schema.Record({ key: Text.pipe(Schema.minLength(1), Schema.maxLength(100)), value: BoundedString })
const Settings = Schema.Record({ key: Schema.String, value: Schema.Unknown })
const Methods = Schema.Array(Text.pipe(Schema.minLength(1), Schema.maxLength(50))).pipe(Schema.minItems(1))
const Currencies = Schema.Array(Currency).pipe(Schema.minItems(1))
const WebhookSecret = BoundedString.pipe(Schema.minLength(1))
const DisplayName = Text.pipe(Schema.minLength(1), Schema.maxLength(100))

/** What shoppers see a connection called: its display name, never its name (an operator's word). */
export const DEFAULT_DISPLAY_NAME = "the payment provider"
export const shownAs = (connection: Pick<ProviderConnection, "display_name">): string => connection.display_name ?? DEFAULT_DISPLAY_NAME

export const CreateProviderConnection = RequestBody("CreateProviderConnection", {
  name: ConnectionName,
  display_name: Schema.optional(Schema.NullOr(DisplayName)),
  type: Text.pipe(Schema.minLength(1), Schema.maxLength(50)),
  credentials: Schema.optional(Credentials),
  webhook_secret: Schema.optional(WebhookSecret),
  base_url: Schema.optional(Url),
  supported_currencies: Schema.optional(Schema.NullOr(Currencies)),
  supported_methods: Schema.optional(Schema.NullOr(Methods)),
  settings: Schema.optional(Settings)
})
export type CreateProviderConnection = typeof CreateProviderConnection.Type

/** A connection's name and type never change: payments are recorded against them. */
export const UpdateProviderConnection = RequestBody("UpdateProviderConnection", {
  display_name: Schema.optional(Schema.NullOr(DisplayName)),
  credentials: Schema.optional(Credentials),
  webhook_secret: Schema.optional(WebhookSecret),
  base_url: Schema.optional(Schema.NullOr(Url)),
  supported_currencies: Schema.optional(Schema.NullOr(Currencies)),
  supported_methods: Schema.optional(Schema.NullOr(Methods)),
  settings: Schema.optional(Settings),
  status: Schema.optional(Schema.Literal("active", "disabled"))
})
export type UpdateProviderConnection = typeof UpdateProviderConnection.Type
