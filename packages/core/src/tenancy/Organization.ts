import { Schema } from "effect"
import { Timestamp } from "../domain/Timestamp.js"

/** Who owns the data. Each mode (test, live) has its own default provider connection. */
export class Organization extends Schema.Class<Organization>("Organization")({
  id: Schema.String,
  name: Schema.String,
  default_provider_test: Schema.NullOr(Schema.String),
  default_provider_live: Schema.NullOr(Schema.String),
  created_at: Timestamp
}) {}

export const defaultProviderOf = (organization: Organization, livemode: boolean): string | null =>
  livemode ? organization.default_provider_live : organization.default_provider_test
