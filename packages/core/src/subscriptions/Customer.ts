import { Schema } from "effect"
import { Metadata } from "../domain/Metadata.js"
import { RequestBody } from "../domain/RequestBody.js"
import { BoundedString, Identifier, Text } from "../domain/Text.js"
import { Timestamp } from "../domain/Timestamp.js"

export class Customer extends Schema.Class<Customer>("Customer")({
  object: Schema.Literal("customer"),
  id: Schema.String,
  email: Schema.NullOr(Schema.String),
  name: Schema.NullOr(Schema.String),
  metadata: Metadata,
  /** The test clock whose time this customer's subscriptions live on; test mode only. */
  test_clock: Schema.NullOr(Schema.String),
  created_at: Timestamp,
  livemode: Schema.Boolean
}) {}

const Email = Text.pipe(Schema.maxLength(320), Schema.pattern(/^[^\s@]+@[^\s@]+$/, { message: () => "must be an email address" }))

/** Body of `POST /v1/customers`. */
export const CreateCustomer = RequestBody("CreateCustomer", {
  email: Schema.optional(Email),
  name: Schema.optional(BoundedString),
  metadata: Schema.optional(Metadata),
  test_clock: Schema.optional(Identifier)
})
export type CreateCustomer = typeof CreateCustomer.Type
