/**
 * The OpenAPI document as the JSON it is, for the transforms that finish it after the framework has
 * built it from the `HttpApi` definition.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is walked as JSON, keyword by keyword
export type Json = Record<string, any>

/** Keywords whose value is one schema, and those whose value is a list or a map of schemas. */
const ONE_SCHEMA = ["items", "additionalProperties", "not", "contentSchema", "propertyNames"]
const SCHEMA_LISTS = ["anyOf", "allOf", "oneOf", "prefixItems"]
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs"]

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

/** Calls `visit` on `schema` and on every schema nested in it. */
export const eachSubschema = (schema: unknown, visit: (schema: Json) => void): void => {
  if (!isObject(schema)) return
  visit(schema)
  for (const key of ONE_SCHEMA) eachSubschema(schema[key], visit)
  for (const key of SCHEMA_LISTS) for (const member of schema[key] ?? []) eachSubschema(member, visit)
  for (const key of SCHEMA_MAPS) for (const member of Object.values(schema[key] ?? {})) eachSubschema(member, visit)
}

const METHODS = ["get", "put", "post", "delete", "patch"]

/** Every operation of a path item map (`paths` or `webhooks`). */
export const operationsIn = (items: Json | undefined): Array<Json> =>
  Object.values<Json>(items ?? {}).flatMap((item) => METHODS.filter((method) => isObject(item[method])).map((method) => item[method]))

/** The operations of `paths` and of `webhooks`. */
export const allOperations = (spec: Json): Array<Json> => [...operationsIn(spec.paths), ...operationsIn(spec.webhooks)]

const mediaSchemas = (holder: Json | undefined): Array<unknown> => Object.values<Json>(holder?.content ?? {}).map((media) => media.schema)

/** Every root schema of the document: components, parameters, request and response bodies. */
export const rootSchemas = (spec: Json): Array<unknown> => [
  ...Object.values(spec.components?.schemas ?? {}),
  ...allOperations(spec).flatMap((operation) => [
    ...(operation.parameters ?? []).map((parameter: Json) => parameter.schema),
    ...mediaSchemas(operation.requestBody),
    ...Object.values<Json>(operation.responses ?? {}).flatMap(mediaSchemas)
  ])
]

/** The component a `$ref` names, if it is one of the document's schemas. */
export const componentOf = (spec: Json, ref: unknown): Json | undefined =>
  typeof ref === "string" && ref.startsWith("#/components/schemas/")
    ? spec.components?.schemas?.[decodeURIComponent(ref.slice("#/components/schemas/".length))]
    : undefined
