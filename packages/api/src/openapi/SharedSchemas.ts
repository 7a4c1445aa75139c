import type { Json } from "./DocumentJson.js"

/**
 * Descriptions of shared schemas that cannot carry their own: Effect's built-in `DateTimeUtc` and
 * `NonNegativeInt`, and branded refinements such as `Currency`, whose annotations the JSON Schema
 * generator does not keep. A field that is only a `$ref` to one of them reads its description here.
 */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  DateTimeUtc: "A time, ISO 8601 in UTC with milliseconds: `2026-11-22T08:54:45.123Z`.",
  NonNegativeInt: "A whole number, 0 or more.",
  Int: "A whole number.",
  MinorUnits: "An amount in minor units of the currency, 0 or more (1050 = 10.50 EUR).",
  Currency: "An active ISO 4217 currency code in upper case, e.g. `EUR`.",
  Amount: "An amount in minor units of the currency (1050 = 10.50 EUR, 1050 = 1050 JPY): 1 to 99 999 999."
}

export const withSharedSchemaDescriptions = (spec: Json): Json => {
  for (const [name, description] of Object.entries(DESCRIPTIONS)) {
    const schema = spec.components?.schemas?.[name]
    if (schema !== undefined) schema.description = description
  }
  return spec
}
