import { Schema } from "effect"

/** A request's body: named `identifier` in the API document, and refusing every field it does not know. */
export const RequestBody = <Fields extends Schema.Struct.Fields>(identifier: string, fields: Fields) =>
  Schema.Struct(fields).annotations({ identifier, parseOptions: { onExcessProperty: "error" } })
