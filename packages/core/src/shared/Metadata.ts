import { Schema } from "effect"

/** Strings accepted anywhere in a request: at most 5 000 characters (decisions §1). */
export const BoundedString = Schema.String.pipe(Schema.maxLength(5000))

const MetadataKey = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(40))
const MetadataValue = Schema.String.pipe(Schema.maxLength(500))

/** Free-form merchant data: at most 50 keys, keys up to 40 characters, string values up to 500. */
export const Metadata = Schema.Record({ key: MetadataKey, value: MetadataValue }).pipe(
  Schema.filter((record) => Object.keys(record).length <= 50 || "metadata can have at most 50 keys")
)
export type Metadata = typeof Metadata.Type
