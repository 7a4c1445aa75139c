import { Schema } from "effect"

/**
 * A whole number from `min` to `max` as a query string carries it: plain decimal digits only.
 * `0x10`, `1e1`, `+5`, ` 5` and `005` all mean a number to `Number()`, but a client sending them has
 * made a mistake worth hearing about rather than a request worth guessing at.
 */
export const DecimalInteger = (min: number, max: number, description?: string) => {
  const rule = `must be a whole number from ${min} to ${max} in plain digits, e.g. ${Math.min(max, Math.max(min, 20))}`
  const digits = String(max).length
  return Schema.String.pipe(
    Schema.pattern(new RegExp(`^(0|[1-9][0-9]{0,${digits - 1}})$`), {
      message: () => rule,
      description: description ?? `a whole number from ${min} to ${max}, in plain decimal digits`
    }),
    Schema.compose(Schema.NumberFromString),
    Schema.filter((value) => (value >= min && value <= max) || rule)
  )
}
