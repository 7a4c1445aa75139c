import { HttpApiBuilder, type HttpApp, HttpIncomingMessage, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import { type ApiError, errorByStatus } from "@orchestrator/api/ApiErrors"
import { API_VERSION } from "@orchestrator/core/events/Event"
import { makeId } from "@orchestrator/core/domain/Ids"
import { Cause, Clock, Effect, Option } from "effect"
import { apiError, errorResponse as send, fromDecodeError } from "./ErrorBodies.js"
import { CurrentRequestId } from "./RequestId.js"

/** Request bodies above this answer 413 (decisions §1). */
export const MAX_BODY_BYTES = 1024 * 1024

const isApiError = (value: unknown): value is ApiError =>
  Object.values(errorByStatus).some((errorClass) => value instanceof errorClass)

const tagOf = (value: unknown): string | undefined =>
  typeof value === "object" && value !== null && "_tag" in value ? String(value._tag) : undefined

const pathOf = (request: HttpServerRequest.HttpServerRequest) => request.url.split("?")[0]

/** What a log may say about a failure: names, messages and stacks, never the values it carried. */
export const describeFailure = (cause: Cause.Cause<unknown>): string =>
  [...Cause.failures(cause), ...Cause.defects(cause)]
    .map((failure) => {
      const lines: Array<string> = []
      let current: unknown = failure
      for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
        if (current instanceof Error) {
          lines.push(depth === 0 ? (current.stack ?? `${current.name}: ${current.message}`) : `caused by ${current.name}: ${current.message}`)
          current = (current as { cause?: unknown }).cause
        } else {
          lines.push(`${depth === 0 ? "" : "caused by "}${tagOf(current) ?? typeof current}`)
          current = undefined
        }
      }
      return lines.join("\n")
    })
    .join("\n---\n")

/**
 * Every failure becomes the documented error body. Our errors are rendered here by class, not by the
 * framework's union of error schemas: they share one wire shape, and a union encodes a value with the
 * first class of that shape.
 */
const renderFailure = (request: HttpServerRequest.HttpServerRequest) => (cause: Cause.Cause<unknown>) =>
  Effect.gen(function*() {
    const failure = Cause.squash(cause)
    if (isApiError(failure)) return send(failure)
    if (failure instanceof HttpApiDecodeError) return send(yield* fromDecodeError(failure))
    const tag = tagOf(failure)
    if (tag === "RouteNotFound") {
      return send(yield* apiError(404, {
        type: "invalid_request_error",
        code: "route_not_found",
        message: `Unrecognized request URL (${request.method} ${pathOf(request)}).`
      }))
    }
    if (tag === "RequestError") {
      const tooLarge = String((failure as { cause?: { message?: string } }).cause?.message).includes("maxBytes")
      return send(yield* tooLarge
        ? apiError(413, {
          type: "invalid_request_error",
          code: "payload_too_large",
          message: `The request body is larger than ${MAX_BODY_BYTES} bytes.`
        })
        : apiError(400, {
          type: "invalid_request_error",
          code: "invalid_json",
          message: "The request body is not valid JSON."
        }))
    }
    yield* Effect.logError(`${request.method} ${pathOf(request)} failed\n${describeFailure(cause)}`)
    return send(yield* apiError(500, {
      type: "api_error",
      code: "internal_error",
      message: "An unexpected error occurred on our side. It has been logged with this request_id."
    }))
  })

/** The API takes JSON only, so a body is JSON whatever its Content-Type says (`curl -d` sends a form type). */
const asJson = (request: HttpServerRequest.HttpServerRequest) =>
  request.headers["content-type"]?.toLowerCase().startsWith("application/json") === true
    ? request
    : request.modify({ headers: { ...request.headers, "content-type": "application/json" } })

/**
 * Wraps every route: gives the request a `req_` id, enforces the body limit and `Service-Version`,
 * turns every failure into the error body of decisions §8, stamps `Request-Id` and `Service-Version`
 * on the response, and logs one line without the query string.
 */
const edge = (app: HttpApp.Default<unknown>): HttpApp.Default =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const started = yield* Clock.currentTimeMillis
    const requestId = makeId("req", started)
    const response = yield* Effect.gen(function*() {
      const version = request.headers["service-version"]
      if (version !== undefined && version !== API_VERSION) {
        return send(yield* apiError(400, {
          type: "invalid_request_error",
          code: "api_version_invalid",
          message: `Unknown Service-Version '${version}'. The current version is ${API_VERSION}.`,
          param: "Service-Version"
        }))
      }
      if (Number(request.headers["content-length"] ?? 0) > MAX_BODY_BYTES) {
        return send(yield* apiError(413, {
          type: "invalid_request_error",
          code: "payload_too_large",
          message: `The request body is larger than ${MAX_BODY_BYTES} bytes.`
        }))
      }
      return yield* Effect.provideService(app, HttpServerRequest.HttpServerRequest, asJson(request))
    }).pipe(
      HttpIncomingMessage.withMaxBodySize(Option.some(MAX_BODY_BYTES)),
      Effect.catchAllCause(renderFailure(request)),
      Effect.locally(CurrentRequestId, requestId)
    )
    const elapsed = (yield* Clock.currentTimeMillis) - started
    yield* Effect.logInfo(`${request.method} ${pathOf(request)} ${response.status} ${elapsed}ms`).pipe(
      Effect.annotateLogs("request_id", requestId)
    )
    return response.pipe(
      HttpServerResponse.setHeader("request-id", requestId),
      HttpServerResponse.setHeader("service-version", API_VERSION)
    )
  })

/**
 * Installed as the API's middleware, inside the router's error handling: a server-level middleware
 * would only see failures after the server had already answered them with an empty body.
 */
export const EdgeLive = HttpApiBuilder.middleware((app) => edge(app))
