import { allOperations, eachSubschema, type Json, rootSchemas } from "./DocumentJson.js"

/**
 * Titles Effect's built-in filters and keywords give a schema (`maxLength(255)`, `between(0, 730)`,
 * `int`, `unknown`). They restate a constraint the schema already carries as a keyword, so a reader
 * of the document learns nothing from them.
 */
const GENERATED_TITLES = [
  /^[A-Za-z]+\(.*\)$/s,
  /^(int|finite|nonNaN|trimmed|nonEmptyString|positive|nonNegative|negative|nonPositive|lowercased|uppercased|capitalized|uncapitalized|validDate|parseJson|unknown|any|object)$/
]

/** The descriptions those filters write ("a string at most 255 character(s) long", "an integer"…). */
const GENERATED_DESCRIPTIONS = [
  /^a string at (least|most) \d+ character\(s\)( and at most \d+ character\(s\))? long$/,
  /^a string (matching the pattern|starting with|ending with|including) /s,
  /^an array of (at least|at most|exactly) \d+ item\(s\)$/,
  /^an? (number|bigint|BigDecimal|Duration|date) (between|greater than|less than|divisible by|after|before) /,
  /^an? (positive|negative|non-negative|non-positive|finite) (number|bigint|BigDecimal|duration)$/,
  /^an? (string|number|bigint|Date|boolean|record|tuple) (to be decoded into|that will be) /,
  /^(an integer|an unknown value|a number excluding NaN|a non empty string|a string with no leading or trailing whitespace|a (lowercase|uppercase|capitalized|uncapitalized) string|a valid Date( instance)?|a DateTime\.Utc instance|a template literal)$/
]

const generatedTitle = (text: unknown) => typeof text === "string" && GENERATED_TITLES.some((pattern) => pattern.test(text))
export const isGeneratedDescription = (text: unknown) => typeof text === "string" && GENERATED_DESCRIPTIONS.some((pattern) => pattern.test(text))

/**
 * Drops, everywhere in the document, the titles and descriptions Effect derives from validation
 * filters; the constraints themselves (`maxLength`, `pattern`, `minimum`…) stay. A property's own
 * description, written for a merchant, is left as it is.
 */
export const withoutGeneratedText = (spec: Json): Json => {
  for (const root of rootSchemas(spec)) {
    eachSubschema(root, (schema) => {
      if (generatedTitle(schema.title)) delete schema.title
      if (isGeneratedDescription(schema.description)) delete schema.description
    })
  }
  for (const operation of allOperations(spec)) {
    for (const parameter of operation.parameters ?? []) {
      if (isGeneratedDescription(parameter.description)) delete parameter.description
    }
  }
  return spec
}
