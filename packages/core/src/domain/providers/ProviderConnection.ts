import { Schema } from "effect"
import { Currency } from "../Currency.js"
import { field, optionalField } from "../Field.js"
import { RequestBody } from "../RequestBody.js"
import { BoundedString, Text, Url } from "../Text.js"
import { Timestamp } from "../Timestamp.js"
import { CONNECTION_TYPES, connectionTypesNamed } from "./ConnectionTypes.js"

export const ConnectionStatus = Schema.Literal("active", "error", "disabled")
export type ConnectionStatus = typeof ConnectionStatus.Type

/**
 * A PSP account of an organization. `name` is what requests and payments call `provider`.
 * Credentials and the webhook secret are write-only: sealed at rest, never part of this object.
 * `status` is `error` while its circuit is open: too many calls in a row failed to reach the PSP.
 */
export class ProviderConnection extends Schema.Class<ProviderConnection>("ProviderConnection")({
  object: field(Schema.Literal("provider_connection"), "Always `provider_connection`."),
  id: field(Schema.String, "The connection's id (`pcn_…`)."),
  name: field(Schema.String, "What payments, rules and sessions call it (`provider`); unique per mode, never changes."),
  /** What shoppers are told this PSP is called (hosted checkout, drop-in); unset: no provider is named to them. */
  display_name: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }).annotations({
    description: "What customers are told this PSP is called in checkout (\"Processed by …\"); `null`: checkout names no provider."
  }),
  type: field(Schema.String.annotations({ jsonSchema: { enum: CONNECTION_TYPES } }), `The PSP: ${connectionTypesNamed()}.`),
  status: field(ConnectionStatus, "`active`, `error` (its circuit is open: calls kept failing; routing skips it) or `disabled`."),
  last_error: field(Schema.NullOr(Schema.String), "Why the latest call failed to reach the PSP, or `null` once a call gets through again."),
  /** When `last_error` happened; cleared with it when a call gets through (the circuit closes). */
  last_error_at: Schema.NullOr(Timestamp).pipe(Schema.propertySignature, Schema.withConstructorDefault(() => null)).annotations({
    description: "When that call failed (ISO 8601 UTC), or `null` once a call gets through again."
  }),
  /** `null` means every currency the connector can handle. */
  supported_currencies: field(Schema.NullOr(Schema.Array(Schema.String)), "The currencies it takes, or `null` for every currency its connector handles."),
  supported_methods: field(Schema.NullOr(Schema.Array(Schema.String)), "The payment methods it takes, or `null` for every method its connector handles."),
  /** Connector-specific knobs, e.g. the sandbox's latency, outage and failure-rate injection. */
  settings: field(
    Schema.Record({ key: Schema.String, value: Schema.Unknown }),
    "The connector's own options (the sandbox's `latency_ms`, `outage`, `failure_rate`, …)."
  ),
  /** Where the connector sends its calls, when not the PSP's own address (a proxy, a local fake). */
  base_url: field(Schema.NullOr(Schema.String), "Where its calls go when not the PSP's own address (a proxy, your account's host), or `null`."),
  /** Calls in a row that could not reach the PSP; a success sets it back to 0. */
  consecutive_failures: field(Schema.NonNegativeInt, "Calls in a row that could not reach the PSP; a success sets it back to 0."),
  /** While the circuit is open: from when one trial call may go through to decide whether it closes. */
  circuit_retry_at: field(Schema.NullOr(Timestamp), "While the circuit is open: when one trial call may go through; else `null`."),
  livemode: field(Schema.Boolean, "`true` for live money, `false` for test mode."),
  created_at: field(Timestamp, "When it was created (ISO 8601 UTC)."),
  updated_at: field(Timestamp, "When it last changed (ISO 8601 UTC).")
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
  webhook_url: field(Schema.String, "Give this address to the PSP: where it sends its webhooks for this connection.")
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
  name: field(ConnectionName, "What payments, rules and sessions will call it: 1 to 64 lower-case letters, digits, `_` or `-`."),
  display_name: optionalField(
    Schema.NullOr(DisplayName),
    "What customers see it called in checkout (\"Processed by …\"); without it, checkout names no provider."
  ),
  type: field(
    // The enum is what the reference shows; the catalog decides (an unknown type answers 422 naming the known ones).
    Text.pipe(Schema.minLength(1), Schema.maxLength(50)).annotations({ jsonSchema: { maxLength: 50, enum: CONNECTION_TYPES } }),
    `The PSP: ${connectionTypesNamed()} (the sandbox in test mode only).`
  ),
  credentials: optionalField(
    Credentials,
    "The PSP's API credentials, by the names its connector asks for (e.g. Stripe's `secret_key`). Write-only: sealed at rest, never shown."
  ),
  webhook_secret: optionalField(WebhookSecret, "The secret the PSP signs its webhooks with. Write-only."),
  base_url: optionalField(Url, "Send calls here instead of the PSP's default host (your account's own host, or a proxy)."),
  supported_currencies: optionalField(Schema.NullOr(Currencies), "Restrict it to these currencies; `null` or absent: every currency its connector handles."),
  supported_methods: optionalField(Schema.NullOr(Methods), "Restrict it to these payment methods; `null` or absent: every method its connector handles."),
  settings: optionalField(Settings, "The connector's own options (the sandbox's: `latency_ms`, `outage`, `failure_rate`, `async_refunds`).")
})
export type CreateProviderConnection = typeof CreateProviderConnection.Type

/** A connection's name and type never change: payments are recorded against them. */
export const UpdateProviderConnection = RequestBody("UpdateProviderConnection", {
  display_name: optionalField(Schema.NullOr(DisplayName), "What customers see it called in checkout; `null`: checkout names no provider."),
  credentials: optionalField(Credentials, "New API credentials; they replace the old ones whole. Write-only."),
  webhook_secret: optionalField(WebhookSecret, "A new webhook signing secret. Write-only."),
  base_url: optionalField(Schema.NullOr(Url), "Send calls here instead of the PSP's default host; `null` for the default."),
  supported_currencies: optionalField(Schema.NullOr(Currencies), "Restrict it to these currencies; `null` for every currency."),
  supported_methods: optionalField(Schema.NullOr(Methods), "Restrict it to these payment methods; `null` for every method."),
  settings: optionalField(Settings, "The connector's own options; they replace the old ones."),
  status: optionalField(Schema.Literal("active", "disabled"), "`disabled` takes it out of routing; `active` brings it back.")
})
export type UpdateProviderConnection = typeof UpdateProviderConnection.Type
