import { Schema } from "effect"
import { field, optionalField } from "../Field.js"
import { Metadata } from "../Metadata.js"
import { RequestBody } from "../RequestBody.js"
import { BoundedString, Identifier, Text } from "../Text.js"
import { Timestamp } from "../Timestamp.js"

export class Customer extends Schema.Class<Customer>("Customer")({
  object: field(Schema.Literal("customer"), "Always `customer`."),
  id: field(Schema.String, "The customer's id (`cus_…`)."),
  email: field(Schema.NullOr(Schema.String), "The customer's email, or `null`."),
  name: field(Schema.NullOr(Schema.String), "The customer's name, or `null`."),
  metadata: field(Metadata, "Your own key-value pairs, as sent."),
  /** The test clock whose time this customer's subscriptions live on; test mode only. */
  test_clock: field(Schema.NullOr(Schema.String), "The test clock whose time this customer's subscriptions live on (test mode), or `null`."),
  created_at: field(Timestamp, "When the customer was created (ISO 8601 UTC)."),
  livemode: field(Schema.Boolean, "`true` for live data, `false` for test mode.")
}) {}

const Email = Text.pipe(Schema.maxLength(320), Schema.pattern(/^[^\s@]+@[^\s@]+$/, { message: () => "must be an email address" }))

/** Body of `POST /v1/customers`. */
export const CreateCustomer = RequestBody("CreateCustomer", {
  email: optionalField(Email, "The customer's email."),
  name: optionalField(BoundedString, "The customer's name."),
  metadata: optionalField(Metadata, "Your own key-value pairs."),
  test_clock: optionalField(Identifier, "A test clock (`clock_…`, test mode only) whose time this customer's subscriptions live on.")
})
export type CreateCustomer = typeof CreateCustomer.Type
