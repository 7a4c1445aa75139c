import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"
import type { OpenApiDocument, Operation } from "./OpenApiArbitraries.js"

export interface ReceivedResponse {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

/** The error `type` each status may carry (decisions §8). */
const typesByStatus: Record<number, ReadonlyArray<string>> = {
  400: ["invalid_request_error"],
  401: ["authentication_error"],
  402: ["payment_error"],
  404: ["invalid_request_error"],
  409: ["invalid_request_error", "idempotency_error"],
  413: ["invalid_request_error"],
  422: ["invalid_request_error", "idempotency_error"],
  429: ["rate_limit_error"],
  500: ["api_error"],
  502: ["provider_error"],
  503: ["api_error"],
  504: ["provider_error"]
}

/** The document with `$id`s dropped (Effect stamps `/schemas/unknown` on every `Schema.Unknown`). */
const withoutIds = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(withoutIds)
    : typeof value === "object" && value !== null
    ? Object.fromEntries(Object.entries(value).filter(([key]) => key !== "$id").map(([key, item]) => [key, withoutIds(item)]))
    : value

/**
 * What the document promises about a response, checked: the status is one it declares for the
 * operation, a JSON body matches the schema declared for that status (ajv, JSON Schema 2020-12 as
 * OpenAPI 3.1 uses), every failure is the error body of §8 with the request's id, and no 5xx at all.
 * Returns the broken promises, empty when there is none.
 */
export const responseContract = (document: OpenApiDocument) => {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false })
  ajv.addSchema({ $id: "openapi.json", ...(withoutIds(document) as object) })
  const validators = new Map<string, ValidateFunction>()
  const validatorFor = (operation: Operation, status: string) => {
    const key = `${operation.method} ${operation.path} ${status}`
    let validate = validators.get(key)
    if (validate === undefined) {
      const pointer = ["paths", operation.path, operation.method, "responses", status, "content", "application/json", "schema"]
        .map((step) => step.replace(/~/g, "~0").replace(/\//g, "~1"))
        .join("/")
      validate = ajv.compile({ $ref: `openapi.json#/${pointer}` })
      validators.set(key, validate)
    }
    return validate
  }

  return (operation: Operation, response: ReceivedResponse): Array<string> => {
    const problems: Array<string> = []
    const { status } = response
    if (status >= 500) problems.push(`answered ${status}`)
    const requestId = response.headers.get("request-id")
    if (requestId === null || !requestId.startsWith("req_")) problems.push("no Request-Id header")
    const declared = operation.spec.responses?.[String(status)] ?? operation.spec.responses?.default
    if (declared === undefined) problems.push(`status ${status} is not declared for this operation`)
    const declaredTypes = Object.keys(declared?.content ?? {})
    const contentType = response.headers.get("content-type") ?? ""
    if (declaredTypes.length > 0 && !declaredTypes.some((type) => contentType.startsWith(type))) {
      problems.push(`Content-Type ${contentType} is not one of ${declaredTypes.join(", ")}`)
    }
    let body: any = undefined
    const schema = declared?.content?.["application/json"]?.schema
    if (schema !== undefined || status >= 400) {
      if (!contentType.startsWith("application/json")) problems.push(`Content-Type ${contentType} for a JSON body`)
      try {
        body = JSON.parse(response.text)
      } catch {
        problems.push(`the body is not JSON: ${JSON.stringify(response.text.slice(0, 200))}`)
      }
    }
    if (schema !== undefined && body !== undefined) {
      const validate = validatorFor(operation, declared === operation.spec.responses?.default ? "default" : String(status))
      if (!validate(body)) {
        problems.push(`the body does not match the declared schema: ${ajv.errorsText(validate.errors)}`)
      }
    }
    if (status >= 400 && body !== undefined) {
      const error = body?.error
      if (typeof body !== "object" || body === null || Object.keys(body).join() !== "error" || typeof error !== "object") {
        problems.push("the body is not {error: …}")
      } else {
        for (const field of ["type", "code", "message", "request_id"]) {
          if (typeof error[field] !== "string") problems.push(`error.${field} is not a string`)
        }
        if (!(error.param === null || typeof error.param === "string")) problems.push("error.param is neither null nor a string")
        if (error.request_id !== requestId) problems.push("error.request_id is not the Request-Id header")
        const types = typesByStatus[status]
        if (types !== undefined && !types.includes(error.type)) problems.push(`error.type ${error.type} with status ${status}`)
      }
      // Checked on the words, not the ids: a random request id may well spell STACK.
      const words = response.text.replace(/\b[a-z]+_[0-9A-Z]{20,40}\b/g, "<id>")
      if (/at \S+\.(ts|js):\d+|SqlError|PGlite|\bstack\b/i.test(words)) problems.push("the error shows internals")
    }
    return problems
  }
}
