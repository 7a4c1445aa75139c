import { Schema } from "effect"
import { field, optionalField } from "../Field.js"
import { ConnectionName } from "../providers/ProviderConnection.js"
import { RequestBody } from "../RequestBody.js"
import { Text } from "../Text.js"
import { Timestamp } from "../Timestamp.js"

/**
 * How payments that force no provider find one: the organization's default provider, or its
 * routing rules (with the default as the last resort).
 */
export const PaymentsRouting = Schema.Literal("default", "rules")
export type PaymentsRouting = typeof PaymentsRouting.Type

/** An operator's choice of requests per second, or null for the service's default. */
const RateLimitSetting = Schema.NullOr(Schema.Int.pipe(Schema.between(1, 1_000_000))).pipe(
  Schema.propertySignature,
  Schema.withConstructorDefault(() => null)
)

/** What shoppers are told the merchant is called in one mode, or null for the organization's name. */
const DisplayNameSetting = Schema.NullOr(Schema.String).pipe(
  Schema.propertySignature,
  Schema.withConstructorDefault(() => null)
)

/**
 * Who owns the data. Each mode (test, live) has its own default provider, routing choice and display
 * name: a test key changes nothing live shoppers see.
 */
export class Organization extends Schema.Class<Organization>("Organization")({
  id: Schema.String,
  name: Schema.String,
  default_provider_test: Schema.NullOr(Schema.String),
  default_provider_live: Schema.NullOr(Schema.String),
  payments_routing_test: PaymentsRouting,
  payments_routing_live: PaymentsRouting,
  /** Requests per second per API key in each mode; null takes the service's default. */
  rate_limit_test: RateLimitSetting,
  rate_limit_live: RateLimitSetting,
  /** What the hosted checkout page and the drop-in call the merchant; null takes `name`. */
  display_name_test: DisplayNameSetting,
  display_name_live: DisplayNameSetting,
  created_at: Timestamp
}) {}

/** The merchant's name as its shoppers see it in this mode: the display name, else the organization's name. */
export const displayNameOf = (organization: Organization, livemode: boolean): string =>
  (livemode ? organization.display_name_live : organization.display_name_test) ?? organization.name

/** 1 to 100 characters, no control characters (`Text`): what a checkout page shows as the shop's name. */
const DisplayName = Text.pipe(Schema.minLength(1), Schema.maxLength(100))

export const defaultProviderOf = (organization: Organization, livemode: boolean): string | null =>
  livemode ? organization.default_provider_live : organization.default_provider_test

export const paymentsRoutingOf = (organization: Organization, livemode: boolean): PaymentsRouting =>
  livemode ? organization.payments_routing_live : organization.payments_routing_test

/** The organization as a key of one mode sees it. */
export const OrganizationView = Schema.Struct({
  object: field(Schema.Literal("organization"), "Always `organization`."),
  id: field(Schema.String, "The organization's id (`org_…`)."),
  name: field(Schema.String, "Its name."),
  display_name: field(
    Schema.String,
    "What shoppers see it called on the hosted checkout page and in the drop-in, in this mode: the display name set with `PATCH`, else `name`."
  ),
  default_provider: field(Schema.NullOr(Schema.String), "This mode's default provider connection (its `name`), or `null` before one is chosen."),
  payments_routing: field(
    PaymentsRouting,
    "`default`: payments that force no provider go to the default provider; `rules`: routing rules first, the default as last resort, with failover."
  ),
  livemode: field(Schema.Boolean, "The mode of the key that asked."),
  created_at: field(Timestamp, "When it was created (ISO 8601 UTC).")
}).annotations({ identifier: "Organization" })
export type OrganizationView = typeof OrganizationView.Type

export const UpdateOrganization = RequestBody("UpdateOrganization", {
  default_provider: optionalField(ConnectionName, "A provider connection of this mode (its `name`), not disabled."),
  payments_routing: optionalField(PaymentsRouting, "`default` or `rules`."),
  display_name: optionalField(
    Schema.NullOr(DisplayName),
    "What shoppers see you called in checkout, in this mode: 1 to 100 characters; `null` for the organization's name."
  )
})
export type UpdateOrganization = typeof UpdateOrganization.Type
