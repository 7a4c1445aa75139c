import { Schema } from "effect"
import { RequestBody } from "../domain/RequestBody.js"
import { Timestamp } from "../domain/Timestamp.js"
import { ConnectionName } from "../providers/ProviderConnection.js"

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

/** Who owns the data. Each mode (test, live) has its own default provider and routing choice. */
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
  created_at: Timestamp
}) {}

export const defaultProviderOf = (organization: Organization, livemode: boolean): string | null =>
  livemode ? organization.default_provider_live : organization.default_provider_test

export const paymentsRoutingOf = (organization: Organization, livemode: boolean): PaymentsRouting =>
  livemode ? organization.payments_routing_live : organization.payments_routing_test

/** The organization as a key of one mode sees it. */
export const OrganizationView = Schema.Struct({
  object: Schema.Literal("organization"),
  id: Schema.String,
  name: Schema.String,
  default_provider: Schema.NullOr(Schema.String),
  payments_routing: PaymentsRouting,
  livemode: Schema.Boolean,
  created_at: Timestamp
}).annotations({ identifier: "Organization" })
export type OrganizationView = typeof OrganizationView.Type

export const UpdateOrganization = RequestBody("UpdateOrganization", {
  default_provider: Schema.optional(ConnectionName),
  payments_routing: Schema.optional(PaymentsRouting)
})
export type UpdateOrganization = typeof UpdateOrganization.Type
