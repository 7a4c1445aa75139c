import { HttpApi, HttpApiBuilder, type HttpApp, HttpIncomingMessage, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import {
  Api,
  type ApiErrorShape,
  CurrentRequestId,
  encodeApiError,
  failWith,
  InternalError,
  InvalidRequest,
  isApiError,
  PayloadTooLarge,
  retryAfterSeconds,
  RouteNotFound,
  ServiceUnavailable,
  statusOf
} from "@orchestrator/api"
import {
  annotateSpan,
  API_VERSION,
  causingRequestHere,
  CurrentCausingRequest,
  decodeUrlPart,
  echoed,
  findUnstorable,
  makeId,
  placeName,
  PublicUrls,
  Readiness
} from "@orchestrator/core"
import { Cause, Clock, Effect, Layer, Option } from "effect"
import { decodeErrorDetails } from "./DecodeErrorMessages.js"
import { isFileUpload, MAX_UPLOAD_BODY_BYTES } from "./files/FileUploads.js"
import { recordRequest } from "./metrics/RequestMetrics.js"
import { strictUrls } from "./StrictUrls.js"
import { onVaultOrigin } from "./vault/CardFormOrigin.js"

/** Request bodies above this answer 413. */
export const MAX_BODY_BYTES = 1024 * 1024

/** No request of this API nests deeper than a few levels; far deeper JSON is refused before it is parsed. */
export const MAX_JSON_DEPTH = 32

const tagOf = (value: unknown): string | undefined => typeof value === "object" && value !== null && "_tag" in value ? String(value._tag) : undefined

const pathOf = (request: HttpServerRequest.HttpServerRequest) => request.url.split("?")[0]!

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
 * Whether any failure in the cause is the database being away (the storage adapter knows what that
 * looks like): the request did nothing durable, so the client is told to retry, with 503, not a 500.
 */
const isDatabaseUnavailable = (cause: Cause.Cause<unknown>) =>
  Effect.map(
    Effect.serviceOption(Readiness),
    (readiness) => Option.exists(readiness, ({ isUnavailable }) => [...Cause.failures(cause), ...Cause.defects(cause)].some(isUnavailable))
  )

/** How deep `text` nests arrays and objects, counted outside strings; stops once past `limit`. */
export const jsonDepth = (text: string, limit: number): number => {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i)
    if (inString) {
      if (char === 92) i++ // backslash: skip the escaped character
      else if (char === 34) inString = false
    } else if (char === 34) inString = true
    else if (char === 123 || char === 91) {
      deepest = Math.max(deepest, ++depth)
      if (deepest > limit) return deepest
    } else if (char === 125 || char === 93) depth--
  }
  return deepest
}

/**
 * Whether the JSON has an object key `__proto__`. `JSON.parse` keeps it as a plain key, but any code
 * that copies the object (schemas decoding a record do) would set a prototype instead and silently
 * drop it: `{"conditions": {"__proto__": …}}` would become a rule that matches every payment.
 * Only texts that could spell it (directly or escaped) are parsed for it.
 */
export const hasProtoKey = (text: string): boolean => {
  if (!text.includes("proto") && !text.includes("\\u")) return false
  let found = false
  try {
    JSON.parse(text, (key, value) => {
      if (key === "__proto__") found = true
      return value
    })
  } catch {
    return false // not JSON: the parser downstream says so
  }
  return found
}

/** A request that does not match the schema: 400 naming the first offending parameter, in the API's words. */
const fromDecodeError = (error: HttpApiDecodeError) => failWith(InvalidRequest, decodeErrorDetails(error))

/** The body limit of a request: 1 MiB, but a file upload's is its own (5 MiB and the form around it). */
const bodyLimitOf = (request: HttpServerRequest.HttpServerRequest) => isFileUpload(request) ? MAX_UPLOAD_BODY_BYTES : MAX_BODY_BYTES

const tooLarge = (request: HttpServerRequest.HttpServerRequest) =>
  failWith(PayloadTooLarge, { message: `The request body is larger than ${bodyLimitOf(request)} bytes.` })

const invalidJson = (message: string) => failWith(InvalidRequest, { code: "invalid_json", message })

/** An API error as the response that carries it. */
const send = (error: ApiErrorShape) => {
  const retryAfter = retryAfterSeconds.get(error)
  return HttpServerResponse.text(encodeApiError(error), {
    status: statusOf(error),
    contentType: "application/json",
    ...(retryAfter === undefined ? {} : { headers: { "retry-after": String(retryAfter) } })
  })
}

/**
 * Every failure becomes the documented error body. API errors are rendered by their own class (they
 * share one wire shape, so the framework's union of error schemas could not tell them apart).
 */
const renderFailure = (request: HttpServerRequest.HttpServerRequest) => (cause: Cause.Cause<unknown>) =>
  Effect.gen(function*() {
    const failure = Cause.squash(cause)
    if (isApiError(failure)) return send(failure)
    const known: Effect.Effect<never, ApiErrorShape> | undefined = failure instanceof HttpApiDecodeError
      ? fromDecodeError(failure)
      : tagOf(failure) === "RouteNotFound"
      ? failWith(RouteNotFound, { message: `Unrecognized request URL (${echoed(request.method)} ${echoed(pathOf(request))}).` })
      : tagOf(failure) === "RequestError"
      ? String((failure as { cause?: { message?: string } }).cause?.message).includes("maxBytes")
        ? tooLarge(request)
        : invalidJson("The request body is not valid JSON.")
      : undefined
    if (known !== undefined) return send(yield* Effect.flip(known))
    if (yield* isDatabaseUnavailable(cause)) {
      yield* Effect.logWarning(`${request.method} ${pathOf(request)}: the database is unavailable\n${describeFailure(cause)}`)
      const unavailable = yield* Effect.flip(failWith(ServiceUnavailable, {
        message: "The service could not reach its database. Nothing was done twice: retry with the same Idempotency-Key."
      }))
      retryAfterSeconds.set(unavailable, 1)
      return send(unavailable)
    }
    yield* Effect.logError(`${request.method} ${pathOf(request)} failed\n${describeFailure(cause)}`)
    return send(
      yield* Effect.flip(
        failWith(InternalError, {
          message: "An unexpected error occurred on our side. It has been logged with this request_id."
        })
      )
    )
  })

/** The API takes JSON only, so a body is JSON whatever its Content-Type says (`curl -d` sends a form type). */
const asJson = (request: HttpServerRequest.HttpServerRequest) =>
  request.headers["content-type"]?.toLowerCase().startsWith("application/json") === true
    ? request
    : request.modify({ headers: { ...request.headers, "content-type": "application/json" } })

/**
 * The PSPs' webhooks are verified on their exact bytes: nothing here may read or touch them first.
 * A file upload is a form its handler reads as it streams in.
 */
const isRaw = (request: HttpServerRequest.HttpServerRequest) => pathOf(request).startsWith("/v1/provider-webhooks/") || isFileUpload(request)

const hasBody = (request: HttpServerRequest.HttpServerRequest) =>
  request.method !== "GET" && request.method !== "HEAD" &&
  (Number(request.headers["content-length"] ?? 0) > 0 || request.headers["transfer-encoding"] !== undefined)

/**
 * Checks a JSON body before anything parses it: deeper than any request can be is refused, so
 * neither the parser nor the error report has to walk it. Reading `text` caches it for the handler.
 */
const checkedBody = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const json = asJson(request)
    if (!hasBody(json)) return json
    const text = yield* json.text
    if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      return yield* invalidJson(`The request body nests deeper than ${MAX_JSON_DEPTH} levels.`)
    }
    if (hasProtoKey(text)) {
      return yield* failWith(InvalidRequest, {
        code: "parameter_invalid",
        message: "The request body uses the key __proto__, which no parameter takes.",
        param: "__proto__"
      })
    }
    yield* refuseUnstorableJson(text)
    return json
  })

const UNSTORABLE = "a NUL character (U+0000), half a UTF-16 surrogate pair, or bytes that are not UTF-8"

/**
 * JSON can carry NUL and half surrogate pairs only as `\u` escapes, so only bodies holding one are
 * parsed for them: refused here, naming the member, whatever the endpoint's schema says of it.
 */
const refuseUnstorableJson = (text: string) => {
  if (!text.includes("\\u")) return Effect.void
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch {
    return Effect.void // not JSON: the parser downstream says so
  }
  const place = findUnstorable(document)
  if (place === undefined) return Effect.void
  // Named as error bodies name members, at most 100 characters of it: a key may be long.
  const param = placeName(place.path)?.slice(0, 100) ?? null
  return failWith(InvalidRequest, {
    code: "parameter_invalid",
    message: place.inKey
      ? `A key of ${param ?? "the request body"} holds ${UNSTORABLE}.`
      : `${param ?? "The request body"} holds ${UNSTORABLE}.`,
    param
  })
}

/** The API's paths as segments (`["", "v1", "payments", ":id"]`), to name the parameter a path segment stands for. */
let apiPaths: ReadonlyArray<ReadonlyArray<string>> | undefined = undefined
const pathParameterAt = (segments: ReadonlyArray<string>, index: number): string | null => {
  if (apiPaths === undefined) {
    const paths: Array<ReadonlyArray<string>> = []
    HttpApi.reflect(Api, { onGroup: () => {}, onEndpoint: ({ endpoint }) => paths.push(endpoint.path.split("/")) })
    apiPaths = paths
  }
  const match = apiPaths.find((path) =>
    path.length === segments.length && path[index]!.startsWith(":") &&
    path.every((part, at) => at === index || part.startsWith(":") || part === segments[at])
  )
  return match === undefined ? null : match[index]!.slice(1)
}

/**
 * What must hold of a request before any route reads it: HTTP/1.1 names its Host, and no path
 * segment, query name or query value decodes to text the service could not store (NUL, half a
 * surrogate pair, bytes that are not UTF-8). Each is a 400 naming where, never a 500 further in.
 */
const checkedTarget = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    if (request.headers.host === undefined && NodeHttpServerRequest.toIncomingMessage(request).httpVersion === "1.1") {
      return yield* failWith(InvalidRequest, {
        code: "request_malformed",
        message: "HTTP/1.1 requests must send a Host header.",
        param: "Host"
      })
    }
    const [path, query] = [pathOf(request), request.url.slice(pathOf(request).length + 1)]
    const segments = path.split("/")
    const bad = segments.findIndex((segment) => decodeUrlPart(segment, false) === undefined)
    if (bad !== -1) {
      const param = pathParameterAt(segments, bad)
      return yield* failWith(InvalidRequest, {
        code: "parameter_invalid",
        message: `${param === null ? "The URL path" : `The path parameter ${param}`} holds ${UNSTORABLE}.`,
        param
      })
    }
    for (const pair of query === "" ? [] : query.split("&")) {
      const [name, value = ""] = pair.split(/=(.*)/s) as [string, string?]
      const named = decodeUrlPart(name, true)
      if (named === undefined || decodeUrlPart(value, true) === undefined) {
        const param = named === undefined ? null : named.slice(0, 100)
        return yield* failWith(InvalidRequest, {
          code: "parameter_invalid",
          message: `${param === null ? "A query parameter's name" : `The query parameter ${param}`} holds ${UNSTORABLE}.`,
          param
        })
      }
    }
  })

/**
 * Wraps every route: gives the request a `req_` id, enforces the body limits and `Service-Version`,
 * turns every failure into the documented error body, stamps `Request-Id` and `Service-Version` on
 * the response, and logs one line without the query string.
 */
const edge = (app: HttpApp.Default<unknown>): HttpApp.Default =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const started = yield* Clock.currentTimeMillis
    const requestId = makeId("req", started)
    // On the request's server span (when traced), to find a trace from the Request-Id a merchant quotes.
    yield* annotateSpan({ "request.id": requestId })
    // Events written while serving it remember it, for the worker spans that act on them later.
    const causing = yield* causingRequestHere(requestId)
    const response = yield* Effect.gen(function*() {
      yield* checkedTarget(request)
      const version = request.headers["service-version"]
      if (version !== undefined && version !== API_VERSION) {
        return yield* failWith(InvalidRequest, {
          code: "api_version_invalid",
          message: `Unknown Service-Version '${echoed(version)}'. The current version is ${API_VERSION}.`,
          param: "Service-Version"
        })
      }
      if (Number(request.headers["content-length"] ?? 0) > bodyLimitOf(request)) return yield* tooLarge(request)
      return yield* Effect.provideService(
        app,
        HttpServerRequest.HttpServerRequest,
        isRaw(request) ? request : yield* checkedBody(request)
      )
    }).pipe(
      HttpIncomingMessage.withMaxBodySize(Option.some(bodyLimitOf(request))),
      Effect.catchAllCause(renderFailure(request)),
      Effect.locally(CurrentRequestId, requestId),
      Effect.locally(CurrentCausingRequest, causing)
    )
    const elapsed = (yield* Clock.currentTimeMillis) - started
    yield* recordRequest(request.method, pathOf(request), response.status, elapsed)
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
export const EdgeLive = Layer.unwrapEffect(
  Effect.map(PublicUrls, (urls) => HttpApiBuilder.middleware((app) => edge(strictUrls(onVaultOrigin(urls.vaultOrigin)(app)))))
)
