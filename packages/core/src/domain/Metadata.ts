import { Schema } from "effect"
import { Text } from "./Text.js"

const MetadataKey = Text.pipe(Schema.minLength(1), Schema.maxLength(40))
const MetadataValue = Text.pipe(Schema.maxLength(500))

/** Free-form merchant data: at most 50 keys, keys up to 40 characters, string values up to 500. */
export const Metadata = Schema.Record({ key: MetadataKey, value: MetadataValue }).pipe(
  Schema.filter((record) => Object.keys(record).length <= 50 || "must have at most 50 keys", {
    jsonSchema: { maxProperties: 50 }
  }),
  Schema.annotations({
    description: "Your own key-value pairs, kept and returned as sent: at most 50 keys of up to 40 characters, " +
      "string values of up to 500."
  })
)
export type Metadata = typeof Metadata.Type
