import { OpenApi } from "@effect/platform"
import { Api } from "@orchestrator/api"
import fc from "fast-check"

/** A JSON Schema as `OpenApi.fromApi` emits it (OpenAPI 3.1, JSON Schema 2020-12 keywords). */
export type JsonSchema = { readonly [keyword: string]: any }

export interface OpenApiDocument {
  readonly paths: { readonly [path: string]: { readonly [method: string]: any } }
  readonly components: { readonly schemas: { readonly [name: string]: JsonSchema } }
}

export interface Operation {
  readonly method: "get" | "post" | "patch" | "delete" | "put"
  readonly path: string
  readonly spec: any
}

/** The document `/v1/openapi.json` serves, made from the same `HttpApi` definition. */
export const openApiDocument = (): OpenApiDocument => OpenApi.fromApi(Api) as unknown as OpenApiDocument

/** Every operation of the document: each path with each of its methods. */
export const operationsOf = (document: OpenApiDocument): Array<Operation> =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ["get", "post", "patch", "delete", "put"].includes(method))
      .map(([method, spec]) => ({ method: method as Operation["method"], path, spec }))
  )

export const parametersOf = (operation: Operation, location: "path" | "query" | "header"): Array<any> =>
  (operation.spec.parameters ?? []).filter((parameter: any) => parameter.in === location)

export const requestSchemaOf = (operation: Operation): JsonSchema | undefined => operation.spec.requestBody?.content?.["application/json"]?.schema

const refName = (ref: string) => ref.replace("#/components/schemas/", "")

/**
 * Values a real client sends for some properties, by property name or by `$ref` name: the schema
 * says "a string", the handler wants a currency it knows or a token the sandbox understands. They are
 * tried besides (never instead of) what the schema alone allows.
 */
export interface Hints {
  readonly byProperty?: { readonly [name: string]: fc.Arbitrary<unknown> }
  readonly byRef?: { readonly [name: string]: fc.Arbitrary<unknown> }
}

/** How long generated strings get, unless the schema asks for more; the schema's own limit is tried too. */
const SHORT = 24

/**
 * Values valid for `schema`: object/required/properties/additionalProperties/patternProperties/
 * propertyNames, enum, const, type (also lists of types), integer and number bounds, string lengths
 * and patterns, arrays with item counts, `$ref` into the components, anyOf/oneOf/allOf (first),
 * OpenAPI 3.0's `nullable`, and schemas without a type (any JSON).
 */
export const arbitraryOf = (document: OpenApiDocument, hints: Hints = {}) => {
  const go = (schema: JsonSchema, depth: number): fc.Arbitrary<unknown> => {
    const plain = fromSchema(schema, depth)
    return schema.nullable === true ? fc.oneof(plain, fc.constant(null)) : plain
  }

  const fromSchema = (schema: JsonSchema, depth: number): fc.Arbitrary<unknown> => {
    if (typeof schema.$ref === "string") {
      const name = refName(schema.$ref)
      const target = document.components.schemas[name]
      if (target === undefined) throw new Error(`unresolved $ref ${schema.$ref}`)
      // Keywords beside a $ref (bounds on an Int, say) narrow it.
      const { $ref: _ref, description: _d, title: _t, ...beside } = schema
      const own = go({ ...target, ...beside }, depth + 1)
      const hint = hints.byRef?.[name]
      return hint === undefined ? own : fc.oneof({ arbitrary: hint, weight: 3 }, { arbitrary: own, weight: 1 })
    }
    if ("const" in schema) return fc.constant(schema.const)
    if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum)
    if (Array.isArray(schema.anyOf)) return fc.oneof(...schema.anyOf.map((each: JsonSchema) => go(each, depth + 1)))
    if (Array.isArray(schema.oneOf)) return fc.oneof(...schema.oneOf.map((each: JsonSchema) => go(each, depth + 1)))
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return go(schema.allOf[0], depth + 1)
    if (Array.isArray(schema.type)) {
      return fc.oneof(...schema.type.map((type: string) => go({ ...schema, type }, depth)))
    }
    switch (schema.type) {
      case "null":
        return fc.constant(null)
      case "boolean":
        return fc.boolean()
      case "integer": {
        const min = schema.minimum ?? (schema.exclusiveMinimum === undefined ? undefined : schema.exclusiveMinimum + 1)
        const max = schema.maximum ?? (schema.exclusiveMaximum === undefined ? undefined : schema.exclusiveMaximum - 1)
        if (min === undefined && max === undefined) return fc.oneof(fc.integer(), fc.maxSafeInteger())
        const bounded = fc.integer({ min: min ?? Number.MIN_SAFE_INTEGER, max: max ?? Number.MAX_SAFE_INTEGER })
        // The bounds themselves are where off-by-one errors live.
        return fc.oneof(bounded, fc.constantFrom(...[min, max].filter((bound) => bound !== undefined)))
      }
      case "number":
        return fc.double({
          noNaN: true,
          noDefaultInfinity: true,
          ...(schema.minimum === undefined ? {} : { min: schema.minimum }),
          ...(schema.maximum === undefined ? {} : { max: schema.maximum })
        })
      case "string":
        return stringOf(schema)
      case "array": {
        const minLength = schema.minItems ?? 0
        const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 4, 4))
        return fc.array(schema.items === undefined ? fc.jsonValue({ maxDepth: 1 }) : go(schema.items, depth + 1), {
          minLength,
          maxLength
        })
      }
      case "object":
        return objectOf(schema, depth)
      default:
        // No type: any JSON value (`Schema.Unknown`).
        return fc.jsonValue({ maxDepth: depth > 4 ? 0 : 2 })
    }
  }

  const stringOf = (schema: JsonSchema): fc.Arbitrary<string> => {
    const minLength: number = schema.minLength ?? 0
    const maxLength: number = schema.maxLength ?? 5000
    if (typeof schema.pattern === "string") {
      return fc.stringMatching(new RegExp(schema.pattern)).filter((value) => value.length >= minLength && value.length <= maxLength)
    }
    const short = fc.string({ minLength, maxLength: Math.max(minLength, Math.min(maxLength, SHORT)), unit: "grapheme" })
    const longest = fc.string({ minLength: maxLength, maxLength, unit: "grapheme-ascii" })
    return maxLength <= SHORT ? short : fc.oneof({ arbitrary: short, weight: 9 }, { arbitrary: longest, weight: 1 })
  }

  const objectOf = (schema: JsonSchema, depth: number): fc.Arbitrary<unknown> => {
    const properties: Record<string, JsonSchema> = schema.properties ?? {}
    const required: Array<string> = schema.required ?? []
    const model: Record<string, fc.Arbitrary<unknown>> = {}
    for (const [name, property] of Object.entries(properties)) {
      const own = go(property, depth + 1)
      const hint = hints.byProperty?.[name]
      model[name] = hint === undefined ? own : fc.oneof({ arbitrary: hint, weight: 3 }, { arbitrary: own, weight: 1 })
    }
    const known = fc.record(model, { requiredKeys: required.filter((name) => name in model) })
    const extraValues: JsonSchema | undefined = typeof schema.additionalProperties === "object"
      ? schema.additionalProperties
      : schema.patternProperties === undefined
      ? undefined
      : Object.values<JsonSchema>(schema.patternProperties)[0]
    if (extraValues === undefined) return known
    const keys = schema.propertyNames === undefined ? fc.string({ minLength: 1, maxLength: 12 }) : stringOf(schema.propertyNames)
    const extra = fc.dictionary(keys.filter((key) => !(key in properties) && key !== "__proto__"), go(extraValues, depth + 1), {
      maxKeys: 4
    })
    return fc.tuple(extra, known).map(([more, fixed]) => ({ ...more, ...fixed }))
  }

  return (schema: JsonSchema) => go(schema, 0)
}

// ---------------------------------------------------------------------------------------------
// Mutations: what a broken, careless or hostile client sends instead.

type Json = null | boolean | number | string | Array<Json> | { [key: string]: Json }

/** Where a value can be replaced inside `value`: every path to an object member or array item. */
const pathsIn = (value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> => {
  if (Array.isArray(value)) return value.flatMap((item, index) => [[...prefix, index], ...pathsIn(item, [...prefix, index])])
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => [[...prefix, key], ...pathsIn(item, [...prefix, key])])
  }
  return []
}

const clone = (value: unknown): any => value === undefined ? undefined : JSON.parse(JSON.stringify(value))

const setAt = (value: unknown, path: ReadonlyArray<string | number>, next: unknown): unknown => {
  if (path.length === 0) return next
  const copy = clone(value)
  let cursor = copy
  for (const step of path.slice(0, -1)) cursor = cursor[step]
  cursor[path[path.length - 1]!] = next
  return copy
}

const deleteAt = (value: unknown, path: ReadonlyArray<string | number>): unknown => {
  const copy = clone(value)
  let cursor = copy
  for (const step of path.slice(0, -1)) cursor = cursor[step]
  const last = path[path.length - 1]!
  if (Array.isArray(cursor)) cursor.splice(Number(last), 1)
  else delete cursor[last]
  return copy
}

/** Picks one of `paths` (or the root when there is none) with `index`. */
const pick = <A>(items: ReadonlyArray<A>, index: number): A | undefined => items.length === 0 ? undefined : items[index % items.length]

/** A value of (almost surely) another type than whatever was there. */
const wrongValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(null, true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 2, "", "0", "true", [], {}, [null], { "": null }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 8 }),
  fc.array(fc.integer(), { maxLength: 3 })
)

/** Strings no database or JSON consumer should choke on: NUL, lone surrogates, controls, RTL, emoji. */
const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "\u0000",
    "a\u0000b",
    "\ud800",
    "x\udc00y",
    "\ud83d",
    "\u202e\u0007\u001b[31m",
    "💳🇪🇺",
    "'; drop table payments; --",
    "${jndi:ldap://x}",
    "%00%2F..%2F",
    "<script>alert(1)</script>",
    "\r\nSet-Cookie: x=y"
  ),
  fc.string({ maxLength: 12, unit: "binary" })
)

/** Numbers JSON can write and JavaScript cannot hold, written raw into the body text. */
const rawNumbers = ["1e400", "-1e400", "123456789012345678901234567890", "1.0000000000000000000001", "-0", "0.1e-400", "1E2"]

export interface MutatedBody {
  readonly label: string
  /** The exact body text; a Buffer for bytes that are not UTF-8. */
  readonly body: string | Uint8Array
  readonly contentType?: string
}

const PLACEHOLDER = "\u0001raw-number\u0001"

/**
 * Mutations of a valid body `base`: wrong types, missing required and unknown members, huge
 * strings, deep nesting, NUL and lone surrogates, numbers out of range, invalid JSON and UTF-8,
 * bodies over the size limit and wrong Content-Types.
 */
export const mutatedBody = (base: fc.Arbitrary<unknown>, schema: JsonSchema | undefined, document: OpenApiDocument) => {
  const resolved = schema?.$ref === undefined ? schema : document.components.schemas[refName(schema.$ref)]
  const required: Array<string> = resolved?.required ?? []
  const at = <A>(label: string, extra: fc.Arbitrary<A>, apply: (body: unknown, path: Array<string | number> | undefined, extra: A) => unknown) =>
    fc.tuple(base, fc.nat(), extra).map(([body, index, more]): MutatedBody => ({
      label,
      body: JSON.stringify(apply(body, pick(pathsIn(body), index), more)) ?? ""
    }))
  const mutations: Array<fc.Arbitrary<MutatedBody>> = [
    at("wrong type", wrongValue, (body, path, value) => path === undefined ? value : setAt(body, path, value)),
    at("nasty string", nastyString, (body, path, value) => path === undefined ? { description: value } : setAt(body, path, value)),
    at(
      "nasty key",
      nastyString,
      (body, _path, key) => typeof body === "object" && body !== null && !Array.isArray(body) ? { ...body, [key]: "v" } : { [key]: body }
    ),
    at(
      "unknown member",
      fc.string({ minLength: 1, maxLength: 10 }),
      (body, _path, key) => typeof body === "object" && body !== null && !Array.isArray(body) ? { ...body, [`x_${key}`]: 1 } : body
    ),
    at(
      "huge string",
      fc.integer({ min: 5001, max: 200_000 }),
      (body, path, length) => path === undefined ? { description: "x".repeat(length) } : setAt(body, path, "é".repeat(length))
    ),
    at("deep nesting", fc.integer({ min: 8, max: 60 }), (body, path, depth) => {
      let nested: unknown = 1
      for (let i = 0; i < depth; i++) nested = i % 2 === 0 ? [nested] : { a: nested }
      return path === undefined ? nested : setAt(body, path, nested)
    }),
    fc.tuple(base, fc.nat(), fc.constantFrom(...rawNumbers)).map(([body, index, number]): MutatedBody => {
      const path = pick(pathsIn(body), index)
      const text = JSON.stringify(path === undefined ? { amount: PLACEHOLDER } : setAt(body, path, PLACEHOLDER)) ?? ""
      return { label: "number out of range", body: text.replace(JSON.stringify(PLACEHOLDER), number) }
    }),
    fc.tuple(base, fc.nat()).map(([body, index]): MutatedBody => {
      const path = pick(pathsIn(body), index)
      return { label: "member removed", body: JSON.stringify(path === undefined ? body : deleteAt(body, path)) ?? "" }
    }),
    fc.tuple(
      base,
      fc.constantFrom<(text: string) => string>(
        (text) => text.slice(0, Math.max(0, text.length - 1)),
        (text) => `${text}}`,
        (text) => `${text} trailing`,
        (text) => `\ufeff${text}`,
        (text) => text.replace(/"/g, "'"),
        () => "",
        () => " ",
        () => "null",
        () => "[]",
        () => "\"text\"",
        () => "42",
        () => "{\"a\":1,\"a\":2}",
        () => "{\"__proto__\": {\"admin\": true}}",
        () => "{\"constructor\": {\"prototype\": {}}}",
        () => "[".repeat(5000) + "]".repeat(5000)
      )
    ).map(([body, damage]): MutatedBody => ({ label: "invalid JSON", body: damage(JSON.stringify(body) ?? "") })),
    base.map((body): MutatedBody => {
      const text = JSON.stringify(body) ?? "{}"
      const bytes = Buffer.concat([Buffer.from(text.slice(0, -1)), Buffer.from([0x2c, 0x22, 0xff, 0xfe, 0xc0, 0x80, 0x22, 0x3a, 0x31, 0x7d])])
      return { label: "invalid UTF-8", body: new Uint8Array(bytes) }
    }),
    fc.constant<MutatedBody>({ label: "over 1 MiB", body: JSON.stringify({ description: "x".repeat(1024 * 1024 + 10) }) }),
    fc.tuple(base, fc.constantFrom("text/plain", "multipart/form-data; boundary=x", "application/xml", "application/json; charset=latin1", "")).map((
      [body, contentType]
    ): MutatedBody => ({ label: "wrong Content-Type", body: JSON.stringify(body) ?? "", contentType }))
  ]
  if (required.length > 0) {
    mutations.push(
      fc.tuple(base, fc.constantFrom(...required)).map(([body, name]): MutatedBody => ({
        label: "missing required",
        body: JSON.stringify(typeof body === "object" && body !== null ? deleteAt(body, [name]) : body) ?? ""
      }))
    )
  }
  return fc.oneof(...mutations)
}

/** Ids that name nothing, or nothing of this kind, or that are not ids at all, ready for a URL path. */
export const unknownId = (otherIds: ReadonlyArray<string>): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      "pay_00000000000000000000000000",
      "x",
      "%00",
      "%2e%2e",
      "a%2Fb",
      "%20",
      "%F0%9F%92%B3",
      "%ED%A0%80",
      "%FF%FE",
      "%25",
      "null",
      "0",
      "-1",
      "1e400",
      `pay_${"x".repeat(300)}`,
      `pay_${"x".repeat(5000)}`,
      "pay_1;x=1",
      "..%5C..%5Cetc%5Cpasswd"
    ),
    ...(otherIds.length === 0 ? [] : [fc.constantFrom(...otherIds)]),
    fc.string({ minLength: 1, maxLength: 40, unit: "binary" }).map((text) => {
      try {
        return encodeURIComponent(text)
      } catch {
        return "%ED%A0%80" // a lone surrogate, which encodeURIComponent refuses to write
      }
    })
  )

/** Text with a NUL or half a surrogate pair somewhere in it: what no store can hold. */
export const unstorableText: fc.Arbitrary<string> = fc.tuple(
  fc.string({ maxLength: 8 }),
  fc.constantFrom("\u0000", "\ud800", "\udbff", "\udc00", "\udfff"),
  fc.string({ maxLength: 8 })
).map(([before, bad, after]) => `${before}${bad}${after}`)

/**
 * Percent-encodes every UTF-16 unit, a lone surrogate included (as the three bytes a lenient
 * encoder writes, `%ED%A0%80`, which are not UTF-8), where `encodeURIComponent` would throw.
 */
export const encodeLoosely = (text: string): string =>
  [...text].map((char) => {
    const unit = char.charCodeAt(0)
    if (char.length > 1 || unit < 0xd800 || unit > 0xdfff) return encodeURIComponent(char)
    return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
      .map((byte) => `%${byte.toString(16).toUpperCase()}`)
      .join("")
  }).join("")

/** A URL part that decodes to unstorable text or to bytes that are not UTF-8 (an overlong NUL, a lone byte). */
export const unstorableUrlPart: fc.Arbitrary<string> = fc.oneof(
  unstorableText.map(encodeLoosely),
  fc.tuple(fc.string({ maxLength: 8 }).map(encodeURIComponent), fc.constantFrom("%C0%80", "%FF", "%E2%82", "%F4%90%80%80"))
    .map(([text, bytes]) => `${text}${bytes}`)
)
