/**
 * Reads the OpenAPI document as a merchant's engineer would, and lists what it leaves unexplained:
 * operations, parameters, tags and schema properties without a description, and titles or
 * descriptions that Effect's validation filters wrote instead of a person. Each finding is one line
 * naming where it is, so a failing test says what to write.
 */
export type Json = { readonly [key: string]: any }

const METHODS = ["get", "post", "put", "patch", "delete"]

export interface Operation {
  readonly label: string
  readonly spec: Json
}

export const operationsOf = (document: Json): Array<Operation> =>
  Object.entries<Json>(document.paths ?? {}).flatMap(([path, methods]) =>
    Object.entries<Json>(methods)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, spec]) => ({ label: `${method.toUpperCase()} ${path}`, spec }))
  )

const isText = (value: unknown): value is string => typeof value === "string" && value.trim().length > 0

/** What the operation's description says before the table of errors the document adds to every one. */
const ownDescription = (spec: Json): string => String(spec.description ?? "").split("**Errors**")[0]!

export const operationsWithoutText = (document: Json): Array<string> =>
  operationsOf(document).flatMap(({ label, spec }) => [
    ...(isText(spec.summary) ? [] : [`${label}: no summary`]),
    ...(isText(ownDescription(spec)) ? [] : [`${label}: no description`])
  ])

export const parametersWithoutDescription = (document: Json): Array<string> =>
  operationsOf(document).flatMap(({ label, spec }) =>
    (spec.parameters ?? [])
      .filter((parameter: Json) => !isText(parameter.description))
      .map((parameter: Json) => `${label}: ${parameter.in} parameter ${parameter.name}`)
  )

export const tagsWithoutDescription = (document: Json): Array<string> => {
  const described = new Set(
    (document.tags ?? []).filter((tag: Json) => isText(tag.description)).map((tag: Json) => tag.name)
  )
  const used = new Set(operationsOf(document).flatMap(({ spec }) => spec.tags ?? []))
  return [...used].filter((tag) => !described.has(tag)).map((tag) => `tag ${tag}`)
}

const componentOf = (document: Json, ref: string): Json | undefined =>
  ref.startsWith("#/components/schemas/") ? document.components?.schemas?.[ref.slice(21)] : undefined

/**
 * A property is described by its own `description`, or by the schema it refers to when it is only
 * a `$ref` (possibly nullable): the reader follows the link and reads it there.
 */
const isDescribed = (document: Json, property: Json): boolean => {
  if (isText(property.description)) return true
  const branches: Array<Json> = property.$ref !== undefined
    ? [property]
    : [...(property.allOf ?? []), ...(property.anyOf ?? []), ...(property.oneOf ?? [])]
  const referenced = branches.filter((branch) => branch.type !== "null")
  return referenced.length > 0 &&
    referenced.every((branch) => branch.$ref !== undefined && isText(componentOf(document, branch.$ref)?.description))
}

const SUBSCHEMA_LISTS = ["anyOf", "allOf", "oneOf", "prefixItems"]
const SUBSCHEMAS = ["items", "additionalProperties", "not", "contentSchema", "propertyNames"]

/** Calls `visit` on every schema under `schema` (itself included) with where it is. */
export const eachSchema = (schema: unknown, where: string, visit: (schema: Json, where: string) => void): void => {
  if (schema === null || typeof schema !== "object") return
  const node = schema as Json
  visit(node, where)
  for (const [name, property] of Object.entries<Json>(node.properties ?? {})) eachSchema(property, `${where}.${name}`, visit)
  for (const [pattern, property] of Object.entries<Json>(node.patternProperties ?? {})) {
    eachSchema(property, `${where}[${pattern}]`, visit)
  }
  for (const key of SUBSCHEMA_LISTS) (node[key] ?? []).forEach((member: Json, i: number) => eachSchema(member, `${where}.${key}[${i}]`, visit))
  for (const key of SUBSCHEMAS) eachSchema(node[key], `${where}.${key}`, visit)
}

const contentSchemas = (where: string, holder: Json | undefined): Array<[string, Json]> =>
  Object.entries<Json>(holder?.content ?? {}).map(([type, media]) => [`${where} ${type}`, media.schema])

/** Every schema of the document with a label: components, bodies, parameters and webhooks. */
export const schemasOf = (document: Json): Array<[string, Json]> => [
  ...Object.entries<Json>(document.components?.schemas ?? {}).map(([name, schema]): [string, Json] => [name, schema]),
  ...[...operationsOf(document), ...webhookOperationsOf(document)].flatMap(({ label, spec }) => [
    ...contentSchemas(`${label} request`, spec.requestBody),
    ...Object.entries<Json>(spec.responses ?? {}).flatMap(([status, response]) => contentSchemas(`${label} ${status}`, response)),
    ...(spec.parameters ?? []).map((parameter: Json): [string, Json] => [`${label} ${parameter.name}`, parameter.schema])
  ])
]

export const webhookOperationsOf = (document: Json): Array<Operation> =>
  Object.entries<Json>(document.webhooks ?? {}).flatMap(([name, item]) =>
    Object.entries<Json>(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, spec]) => ({ label: `webhook ${name} ${method.toUpperCase()}`, spec }))
  )

export const propertiesWithoutDescription = (document: Json): Array<string> => {
  const found = new Set<string>()
  for (const [label, schema] of schemasOf(document)) {
    eachSchema(schema, label, (node, where) => {
      for (const [name, property] of Object.entries<Json>(node.properties ?? {})) {
        if (!isDescribed(document, property)) found.add(`${where}.${name}`)
      }
    })
  }
  return [...found]
}

/** Titles Effect's built-in filters and keywords write: `maxLength(255)`, `int`, `unknown`… */
const GENERATED_TITLE = [
  /^[a-zA-Z]+\(.*\)$/,
  /^(int|finite|trimmed|nonEmptyString|positive|nonNegative|negative|nonPositive|nonNaN|lowercased|uppercased|capitalized|uncapitalized|validDate|parseJson|unknown|any|string|number|boolean|object|never|void|null|undefined|symbol|bigint)$/
]

/** Descriptions they write: "a string at most 255 character(s) long", "an integer", "a number between 0 and 1"… */
const GENERATED_DESCRIPTION = [
  /^an? (string|number|integer|array|bigint|boolean|tuple|record|template literal|unknown value|instance of|valid Date|non[- ]|positive|negative|finite|lowercase|uppercase|capitalized|uncapitalized|date (after|before|between)|Date|DateTime|BigDecimal|Duration|TimeZone|Universally|JSON|potentially|uncapitalized|\d+-bit)\b/,
  /character\(s\)|item\(s\)/
]

export const generatedText = (document: Json): Array<string> => {
  const found = new Set<string>()
  const schemas: Array<[string, Json]> = [
    ...schemasOf(document),
    ...Object.entries<Json>(document.components?.schemas ?? {})
  ]
  for (const [label, schema] of schemas) {
    eachSchema(schema, label, (node, where) => {
      if (typeof node.title === "string" && GENERATED_TITLE.some((pattern) => pattern.test(node.title))) {
        found.add(`${where}: title "${node.title}"`)
      }
      if (typeof node.description === "string" && GENERATED_DESCRIPTION.some((pattern) => pattern.test(node.description))) {
        found.add(`${where}: description "${node.description}"`)
      }
    })
  }
  for (const { label, spec } of operationsOf(document)) {
    for (const parameter of spec.parameters ?? []) {
      if (GENERATED_DESCRIPTION.some((pattern) => pattern.test(parameter.description ?? ""))) {
        found.add(`${label} ${parameter.name}: description "${parameter.description}"`)
      }
    }
  }
  return [...found]
}
