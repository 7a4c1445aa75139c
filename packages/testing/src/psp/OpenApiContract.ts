import { Ajv, type ValidateFunction } from "ajv"
import { Ajv2020 } from "ajv/dist/2020.js"
import yaml from "js-yaml"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import qs from "qs"

/**
 * Where the PSPs' published OpenAPI documents live: `PSP_OPENAPI_DIR` when set (a newer copy), else
 * the copy kept in `packages/testing/psp-documents`, so a clone tests on its own.
 */
const pspDocuments = () => {
  const kept = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../psp-documents")
  const candidates = [process.env.PSP_OPENAPI_DIR, kept]
  const found = candidates.find((dir) => dir !== undefined && dir !== "" && fs.existsSync(path.join(dir, "README.md")))
  if (found === undefined) throw new Error("The PSPs' OpenAPI documents are not found: set PSP_OPENAPI_DIR")
  return found
}

/** One HTTP exchange a connector had with a PSP (a fake one), as sent and as answered. */
export interface RecordedExchange {
  readonly method: string
  /** The path as sent, with the query string. */
  readonly url: string
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly body: string
  /** The body's bytes as received (a file uploaded in it), when the fake kept them. */
  readonly bytes?: Uint8Array
  readonly status: number
  readonly responseBody: string
}

interface Operation {
  readonly template: string
  readonly operation: any
}

type Dialect = "3.0" | "3.1"

const DOC_ID = "urn:psp:document"

/**
 * OpenAPI's `nullable: true` in JSON Schema terms (`null` allowed besides the schema), everywhere
 * in the document: Ajv knows `nullable` only next to a `type`, and Stripe puts it on `anyOf`s too.
 */
const withoutNullable = (node: any): any => {
  if (Array.isArray(node)) return node.map(withoutNullable)
  if (typeof node !== "object" || node === null) return node
  const { nullable, ...rest } = node
  const converted = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, withoutNullable(value)]))
  if (nullable !== true) return converted
  if (typeof converted.type === "string" && converted.enum === undefined) return { ...converted, type: [converted.type, "null"] }
  return { anyOf: [converted, { type: "null" }] }
}

/**
 * Required properties a request does not send: OpenAPI lists `readOnly` ones (an id, a status) among
 * an object's `required`, "relevant only for responses". Mollie's shared entity schemas do so.
 */
const withoutReadOnlyRequired = (node: any, schemas: Record<string, any>): any => {
  if (Array.isArray(node)) return node.map((each) => withoutReadOnlyRequired(each, schemas))
  if (typeof node !== "object" || node === null) return node
  const converted = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withoutReadOnlyRequired(value, schemas)]))
  if (!Array.isArray(node.required) || typeof node.properties !== "object") return converted
  const readOnly = (property: any) =>
    property?.readOnly === true ||
    (typeof property?.$ref === "string" && schemas[property.$ref.split("/").at(-1)]?.readOnly === true)
  return { ...converted, required: node.required.filter((name: string) => !readOnly(node.properties[name])) }
}

/** The document, JSON or YAML (read as YAML 1.2's core schema: Mollie's unquoted dates stay strings). */
const readDocument = (file: string): any => {
  const text = fs.readFileSync(path.join(pspDocuments(), file), "utf8")
  return /\.ya?ml$/.test(file) ? yaml.load(text, { schema: yaml.CORE_SCHEMA }) : JSON.parse(text)
}

/** The JSON body schema of a declared answer: `application/json`, or HAL's (`application/hal+json`, Mollie's). */
const jsonSchemaOf = (content: any): unknown => content?.["application/json"]?.schema ?? content?.["application/hal+json"]?.schema

/**
 * A PSP's published OpenAPI document as a judge of requests and responses: the operation must exist
 * for the method and path, its required parameters be there with their types and enums, the body
 * match the schema of its content type (Stripe's form bodies decoded with bracket nesting, as Stripe
 * reads them, values coerced from strings to the schema's types), and every answer match the schema
 * of its status. Validation is by Ajv on the document's own schemas.
 */
export class OpenApiContract {
  private readonly requestAjv: Ajv
  private readonly responseAjv: Ajv
  private readonly parameterAjv: Ajv
  private readonly compiled = new Map<string, ValidateFunction>()
  private schemas = 0
  private readonly doc: any

  /**
   * `unicodeRegExp: false` for a document whose patterns are written for JavaScript's non-Unicode
   * regular expressions (PayPal's email pattern escapes characters the `u` flag refuses).
   */
  constructor(file: string, dialect: Dialect, private readonly basePath: string, patterns: { readonly unicodeRegExp?: boolean } = {}) {
    this.doc = withoutNullable(readDocument(file))
    const make = (coerceTypes: boolean) => {
      const options = {
        strict: false,
        allErrors: true,
        validateFormats: false,
        coerceTypes: coerceTypes ? "array" as const : false,
        unicodeRegExp: patterns.unicodeRegExp ?? true
      }
      return dialect === "3.1" ? new Ajv2020(options) : new Ajv(options)
    }
    this.requestAjv = make(dialect === "3.0")
    this.responseAjv = make(false)
    this.parameterAjv = make(true)
    // The components once per validator: every operation's schema refers into them.
    const requestComponents = withoutReadOnlyRequired(this.doc.components, this.doc.components?.schemas ?? {})
    this.requestAjv.addSchema({ $id: DOC_ID, components: requestComponents })
    for (const ajv of [this.responseAjv, this.parameterAjv]) ajv.addSchema({ $id: DOC_ID, components: this.doc.components })
  }

  static stripe = () => new OpenApiContract("stripe-spec3-2022-04.openapi.json", "3.0", "")
  static adyenCheckout = () => new OpenApiContract("adyen-checkout-v71.openapi.json", "3.1", "/v71")
  static adyenWebhooks = () => new OpenApiContract("adyen-webhooks-v1.openapi.json", "3.1", "")
  /** Checkout.com's Unified Payments API for the new account structure (NAS), June 2021. */
  static checkoutCom = () => new OpenApiContract("checkout-com-nas-2021-06.openapi.json", "3.0", "")
  static mollie = () => new OpenApiContract("mollie-v2.openapi.yaml", "3.1", "")
  static paypalOrders = () => new OpenApiContract("paypal-checkout-orders-v2.openapi.json", "3.0", "", { unicodeRegExp: false })
  static paypalPayments = () => new OpenApiContract("paypal-payments-v2.openapi.json", "3.0", "", { unicodeRegExp: false })
  static paypalWebhooks = () => new OpenApiContract("paypal-webhooks-v1.openapi.json", "3.0", "", { unicodeRegExp: false })
  static paypalDisputes = () => new OpenApiContract("paypal-customer-disputes-v1.openapi.json", "3.0", "", { unicodeRegExp: false })
  static adyenDisputes = () => new OpenApiContract("adyen-disputes-v30.openapi.json", "3.1", "/ca/services/DisputeService/v30")

  /** The document's schema under `pointer` (e.g. `components/schemas/NotificationRequestItem`). */
  schemaAt(pointer: string): unknown {
    return pointer.split("/").reduce((node, key) => node?.[key], this.doc)
  }

  private validator(key: string, schema: unknown, forRequest: boolean | "parameter"): ValidateFunction {
    const cacheKey = `${forRequest === "parameter" ? "par" : forRequest ? "req" : "res"}:${key}`
    const existing = this.compiled.get(cacheKey)
    if (existing !== undefined) return existing
    // The operation's `#/components/…` references point into the components added once.
    const ajv = forRequest === "parameter" ? this.parameterAjv : forRequest ? this.requestAjv : this.responseAjv
    const rooted = JSON.parse(JSON.stringify(schema).replaceAll("\"$ref\":\"#/", `"$ref":"${DOC_ID}#/`))
    const validate = ajv.compile({ $id: `urn:psp:operation:${this.schemas++}`, allOf: [rooted] })
    this.compiled.set(cacheKey, validate)
    return validate
  }

  private errorsOf(validate: ValidateFunction, data: unknown): ReadonlyArray<string> {
    return validate(data) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? ""} ${JSON.stringify(error.params)}`)
  }

  /** The operation of `method` on the path (without query), if the document has it. */
  find(method: string, pathname: string): (Operation & { readonly params: Record<string, string> }) | undefined {
    if (!pathname.startsWith(this.basePath)) return undefined
    const local = pathname.slice(this.basePath.length)
    for (const [template, item] of Object.entries<any>(this.doc.paths)) {
      const names: Array<string> = []
      const pattern = new RegExp(`^${template.replace(/\{([^}]+)\}/g, (_, name) => (names.push(name), "([^/]+)"))}$`)
      const match = local.match(pattern)
      const operation = item[method.toLowerCase()]
      if (match !== null && operation !== undefined) {
        return { template, operation, params: Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)])) }
      }
    }
    return undefined
  }

  private parameter(parameter: any): any {
    return parameter.$ref === undefined ? parameter : this.schemaAt(parameter.$ref.slice(2))
  }

  /** Everything the document finds wrong with a request; empty when it is valid. */
  checkRequest(request: Pick<RecordedExchange, "method" | "url" | "headers" | "body">): ReadonlyArray<string> {
    const url = new URL(request.url, "http://psp.invalid")
    const found = this.find(request.method, url.pathname)
    if (found === undefined) return [`no operation ${request.method} ${url.pathname} in the document`]
    const problems: Array<string> = []
    const query = qs.parse(url.search.slice(1), { depth: 10, arrayLimit: 100 })
    // Parameters of the path item apply to each of its operations (Mollie declares the ids there).
    const item = this.doc.paths[found.template]
    for (const raw of [...(item.parameters ?? []), ...(found.operation.parameters ?? [])]) {
      const parameter = this.parameter(raw)
      const value = parameter.in === "path"
        ? found.params[parameter.name]
        : parameter.in === "query"
        ? query[parameter.name]
        : parameter.in === "header"
        ? request.headers[parameter.name.toLowerCase()]
        : undefined
      if (value === undefined) {
        if (parameter.required === true) problems.push(`missing required ${parameter.in} parameter ${parameter.name}`)
        continue
      }
      if (parameter.schema !== undefined) {
        const key = `${found.template}:${request.method}:${parameter.in}:${parameter.name}`
        // Parameters travel as text: coerce them to the schema's types, as the PSP does.
        const holder = { value }
        const validate = this.validator(key, { type: "object", properties: { value: parameter.schema } }, "parameter")
        problems.push(...this.errorsOf(validate, holder).map((error) => `${parameter.in} ${parameter.name}: ${error}`))
      }
    }
    const body = found.operation.requestBody
    // A request body may be declared once under `components/requestBodies` (PayPal's `evidences`).
    const declared = body?.$ref === undefined ? body : this.schemaAt(body.$ref.slice(2)) as any
    const contentType = (request.headers["content-type"] ?? "").split(";")[0]!.trim()
    if (request.body === "") {
      if (declared?.required === true) problems.push("missing required body")
      return problems
    }
    const media = declared?.content?.[contentType]
    if (media === undefined) return [...problems, `content type '${contentType}' not accepted by ${request.method} ${found.template}`]
    const decoded = contentType === "application/x-www-form-urlencoded"
      ? qs.parse(request.body, { depth: 20, arrayLimit: 1000 })
      : contentType === "multipart/form-data"
      ? multipartFields(request.body, request.headers["content-type"] ?? "")
      : JSON.parse(request.body)
    if (decoded === undefined) return [...problems, "body is not multipart/form-data with the boundary its content type names"]
    const validate = this.validator(`${found.template}:${request.method}:body`, media.schema, true)
    problems.push(...this.errorsOf(validate, decoded).map((error) => `body ${error}`))
    return problems
  }

  /** Everything the document finds wrong with an answer to a request; empty when it is valid. */
  checkResponse(exchange: Pick<RecordedExchange, "method" | "url" | "status" | "responseBody">): ReadonlyArray<string> {
    const url = new URL(exchange.url, "http://psp.invalid")
    const found = this.find(exchange.method, url.pathname)
    if (found === undefined) return [`no operation ${exchange.method} ${url.pathname} in the document`]
    const responses = found.operation.responses
    const declared = responses[String(exchange.status)] ?? responses[`${String(exchange.status)[0]}XX`] ?? responses.default
    const resolved = declared?.$ref === undefined ? declared : this.schemaAt(declared.$ref.slice(2))
    // A status the document declares without a body (Checkout.com's 401, 404, 502; Mollie's 202 to a release): an empty answer fits it.
    if (resolved !== undefined && (resolved as any).content === undefined && exchange.responseBody === "") return []
    const schema = jsonSchemaOf((resolved as any)?.content)
    if (schema === undefined) return [`no JSON answer with status ${exchange.status} for ${exchange.method} ${found.template}`]
    const validate = this.validator(`${found.template}:${exchange.method}:${exchange.status}`, schema, false)
    return this.errorsOf(validate, JSON.parse(exchange.responseBody)).map((error) => `response ${exchange.status} ${error}`)
  }

  /** Validates a webhook's body against the document's description of the webhook `name` (e.g. `/AUTHORISATION`). */
  checkWebhook(name: string, value: unknown): ReadonlyArray<string> {
    const schema = this.doc.webhooks?.[name]?.post?.requestBody?.content?.["application/json"]?.schema
    if (schema === undefined) return [`no webhook ${name} in the document`]
    return this.errorsOf(this.validator(`webhook:${name}`, schema, false), value)
  }

  /** Validates any value against one of the document's schemas. */
  checkSchema(pointer: string, value: unknown): ReadonlyArray<string> {
    return this.errorsOf(this.validator(pointer, { $ref: `#/${pointer}` }, false), value)
  }
}

/** One part of a multipart/form-data body: its name, its own headers (lower-case names) and its content. */
export interface MultipartPart {
  readonly name: string
  readonly filename: string | undefined
  readonly headers: Readonly<Record<string, string>>
  readonly content: string
}

/**
 * A multipart/form-data body (RFC 7578) split into its parts by the boundary its content type names;
 * `undefined` when it is not one (no boundary, no closing delimiter, a part without a name).
 */
export const multipartParts = (body: string, contentType: string): ReadonlyArray<MultipartPart> | undefined => {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1]
  if (boundary === undefined || !body.includes(`--${boundary}--`)) return undefined
  const parts: Array<MultipartPart> = []
  for (const chunk of body.split(`--${boundary}`).slice(1, -1)) {
    const split = chunk.indexOf("\r\n\r\n")
    if (!chunk.startsWith("\r\n") || split < 0 || !chunk.endsWith("\r\n")) return undefined
    const headers = Object.fromEntries(
      chunk.slice(2, split).split("\r\n").map((line) => [line.slice(0, line.indexOf(":")).trim().toLowerCase(), line.slice(line.indexOf(":") + 1).trim()])
    )
    const disposition = headers["content-disposition"] ?? ""
    const name = /(?:^|;)\s*name="([^"]*)"/.exec(disposition)?.[1]
    if (!disposition.startsWith("form-data") || name === undefined) return undefined
    parts.push({ name, filename: /filename="([^"]*)"/.exec(disposition)?.[1], headers, content: chunk.slice(split + 4, -2) })
  }
  return parts
}

/** A file part of a multipart/form-data body, byte for byte. */
export interface UploadedFile {
  readonly name: string
  readonly filename: string | undefined
  readonly type: string | undefined
  readonly bytes: Uint8Array
}

/**
 * The parts of a multipart/form-data body received as `bytes`, each content byte for byte (read as
 * latin1, which maps every byte to one character and back); the boundary is read from its first
 * line when no content type is given (a fake's handler sees no headers).
 */
export const multipartUploads = (bytes: Uint8Array, contentType?: string): ReadonlyArray<UploadedFile> | undefined => {
  const text = Buffer.from(bytes).toString("latin1")
  const boundary = /^--([^\r\n]+)\r\n/.exec(text)?.[1]
  const parts = multipartParts(text, contentType ?? `multipart/form-data; boundary=${boundary ?? ""}`)
  return parts?.map((part) => ({
    name: part.name,
    filename: part.filename,
    type: part.headers["content-type"],
    bytes: new Uint8Array(Buffer.from(part.content, "latin1"))
  }))
}

/** A multipart/form-data body as the object its schema describes: each part's content under its name. */
const multipartFields = (body: string, contentType: string): Record<string, string> | undefined => {
  const parts = multipartParts(body, contentType)
  return parts === undefined ? undefined : Object.fromEntries(parts.map((part) => [part.name, part.content]))
}

/** A form body decoded with bracket nesting, as Stripe reads it (by `qs`, as Stripe's own SDK encodes). */
export const decodeFormBody = (text: string): Record<string, unknown> => qs.parse(text, { depth: 20, arrayLimit: 1000 })
