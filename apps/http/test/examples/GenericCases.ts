import type { ExampleRequest } from "@orchestrator/api"
import type { Recorded } from "./ExampleRecording.js"
import { EXAMPLE_KEY_PREFIX } from "./ScenarioStep.js"

/** An operation of the document, as the walk sees it. */
export interface DocumentOperation {
  readonly operationId: string
  readonly method: string
  readonly path: string
  readonly statuses: ReadonlyArray<number>
  readonly bearer: boolean
  readonly hasBody: boolean
  readonly queryParameters: ReadonlyArray<string>
}

/** Every operation of the document, in its order, so none is forgotten. */
export const operationsOf = (document: any): ReadonlyArray<DocumentOperation> =>
  Object.entries<any>(document.paths).flatMap(([path, item]) =>
    Object.entries<any>(item).filter(([, operation]) => operation?.responses !== undefined).map(([method, operation]) => ({
      operationId: operation.operationId,
      method: method.toUpperCase(),
      path,
      statuses: Object.keys(operation.responses).map(Number),
      bearer: (operation.security ?? []).some((requirement: object) => "bearer" in requirement),
      hasBody: operation.requestBody !== undefined,
      queryParameters: (operation.parameters ?? []).filter((p: any) => p.in === "query").map((p: any) => p.name as string)
    }))
  )

/** Operations whose 400 the generic rules cannot reach (the replay test's exceptions say why). */
const NO_GENERIC_400 = ["paymentReturn.return"]

export type Case = Omit<Recorded, "step" | "response"> & { readonly status: number }

/** `pay_01KM…` → `pay_00000…`: an id of the right kind and form that names nothing. */
const unknownIdLike = (id: string) => id.replace(/_([0-9A-Za-z]+)$/, (_, rest: string) => `_${"0".repeat(rest.length)}`)

/** The value of each `{name}` of `template` in `path`. */
const pathParameters = (template: string, path: string) => {
  const names = template.split("/")
  const values = path.split("/")
  return names.flatMap((segment, index) => (segment.startsWith("{") ? [{ index, value: values[index]! }] : []))
}

/** The same request under a key of its own: reusing the original's would answer 422 (another body), not the error shown. */
const withKeySuffix = (request: ExampleRequest, suffix: string): ExampleRequest => {
  const key = request.headers?.["idempotency-key"]
  return key === undefined ? request : { ...request, headers: { ...request.headers, "idempotency-key": `${key}-${suffix}` } }
}

/** The body with its first number one more, or else its first string changed: another request, still valid. */
const changed = (body: unknown): unknown => {
  const entries = Object.entries(body as Record<string, unknown>)
  const number = entries.find(([, value]) => typeof value === "number")
  if (number !== undefined) return { ...(body as object), [number[0]]: (number[1] as number) + 1 }
  const text = entries.find(([key, value]) => typeof value === "string" && !key.endsWith("_id") && !/^[a-z]+_[0-9A-Z]{20,}$/.test(value))
  if (text !== undefined) return { ...(body as object), [text[0]]: `${text[1] as string}-2` }
  return { ...(body as object), metadata: { changed: "yes" } }
}

/** The success's Idempotency-Key again on another request: about another object, or with another body. */
const keyReuseOf = (operation: DocumentOperation, base: ExampleRequest): Case | undefined => {
  if (base.headers?.["idempotency-key"] === undefined) return undefined
  const common = {
    operationId: operation.operationId,
    name: "key_reused",
    summary: "The Idempotency-Key of an earlier request, with another request",
    status: 422
  }
  const ids = pathParameters(operation.path, base.path)
  if (ids.length > 0) {
    const segments = base.path.split("/")
    for (const { index, value } of ids) segments[index] = unknownIdLike(value)
    return { ...common, request: { ...base, path: segments.join("/") } }
  }
  if (base.body !== undefined && base.body !== null && typeof base.body === "object" && !Array.isArray(base.body)) {
    return { ...common, request: { ...base, body: changed(base.body) } }
  }
  return undefined
}

const invalidRequestOf = (operation: DocumentOperation, original: ExampleRequest): Case | undefined => {
  const common = { operationId: operation.operationId, status: 400 }
  const base = withKeySuffix(original, "invalid")
  if (operation.hasBody) {
    return { ...common, name: "invalid_body", summary: "The body must be a JSON object of the documented fields", request: { ...base, body: [] } }
  }
  if (operation.queryParameters.includes("limit")) {
    return { ...common, name: "invalid_limit", summary: "limit is between 1 and 100", request: { ...base, query: { limit: "0" } } }
  }
  if (operation.queryParameters.length === 0) {
    return { ...common, name: "unknown_parameter", summary: "This operation takes no query parameters", request: { ...base, query: { colour: "blue" } } }
  }
  return undefined
}

/**
 * The error examples every operation has alike, made from its first recorded request: without a key
 * (401), invalid (400), an unknown id (404), where the scenario has none of its own.
 */
export const genericCases = (operations: ReadonlyArray<DocumentOperation>, recorded: ReadonlyArray<Recorded>): ReadonlyArray<Case> =>
  operations.flatMap((operation) => {
    const own = recorded.filter((example) => example.operationId === operation.operationId)
    const base = own.find((example) => example.response.status < 400)?.request
    if (base === undefined) return []
    const has = (status: number) => own.some((example) => example.response.status === status)
    const cases: Array<Case> = []
    if (operation.bearer && operation.statuses.includes(401) && !has(401)) {
      cases.push({
        operationId: operation.operationId,
        name: "no_api_key",
        summary: "Without an API key (Authorization: Bearer sk_test_…)",
        status: 401,
        request: { ...withKeySuffix(base, "no-key"), auth: "none" }
      })
    }
    if (operation.statuses.includes(400) && !has(400) && !NO_GENERIC_400.includes(operation.operationId)) {
      const invalid = invalidRequestOf(operation, base)
      if (invalid !== undefined) cases.push(invalid)
    }
    const reuse = keyReuseOf(operation, base)
    if (operation.statuses.includes(422) && !has(422) && reuse !== undefined) cases.push(reuse)
    const ids = pathParameters(operation.path, base.path)
    if (operation.statuses.includes(404) && !has(404) && ids.length > 0) {
      const segments = base.path.split("/")
      for (const { index, value } of ids) segments[index] = unknownIdLike(value)
      cases.push({
        operationId: operation.operationId,
        name: "not_found",
        summary: "No such object for this key",
        status: 404,
        request: { ...withKeySuffix(base, "not-found"), path: segments.join("/") }
      })
    }
    return cases
  })

/** The examples of answers any operation can give alike: shown on every operation that declares the status. */
export const commonCases: ReadonlyArray<Case> = [
  {
    operationId: "*",
    name: "route_not_found",
    summary: "No such endpoint",
    status: 404,
    request: { method: "GET", path: "/v1/paymentz" }
  },
  {
    operationId: "*",
    name: "payload_too_large",
    summary: "A body over 1 MiB",
    status: 413,
    request: { method: "POST", path: "/v1/payments", headers: { "idempotency-key": `${EXAMPLE_KEY_PREFIX}order-huge` } },
    prepare: { oversizedBody: true }
  },
  {
    operationId: "*",
    name: "rate_limited",
    summary: "Too many requests with one key; Retry-After says when to try again",
    status: 429,
    request: { method: "GET", path: "/v1/payments", query: { limit: "1" }, auth: "live" },
    prepare: { exhaustRateLimit: true }
  }
]
