import { HttpClient, HttpClientRequest } from "@effect/platform"
import { ConnectorOutcomeUnknown, ConnectorUnavailable, EgressFailure, traced } from "@orchestrator/core"
import { Context, Duration, Effect, Layer, Schema } from "effect"

/** Where and under which bounds one connection's calls go. */
export interface PspDestination {
  readonly connectTimeoutMs: number
  /** The whole call, connecting included: past it the connection is dropped. */
  readonly timeoutMs: number
  readonly livemode: boolean
  /** The PSP's documented hosts, the only ones a live connection may call. */
  readonly liveHosts: ReadonlyArray<string>
}

/**
 * How connectors reach their PSPs: an HTTP client for one connection. The runtime provides it
 * (Node: the egress client, which applies the service's egress policy to `destination`, never
 * follows a redirect, bounds the call and the answer's size); a plain `HttpClient` serves tests
 * against local fakes.
 */
export class PspHttp extends Context.Tag("connectors/PspHttp")<PspHttp, {
  readonly client: (destination: PspDestination) => HttpClient.HttpClient
}>() {
  /** One client for every destination: only the read timeout of each call applies. */
  static readonly fromHttpClient = Layer.effect(
    PspHttp,
    Effect.map(HttpClient.HttpClient, (client) => PspHttp.of({ client: () => client }))
  )
}

/** The most of a PSP's answer read: its API answers are far smaller; more is refused, not buffered. */
export const PSP_ANSWER_LIMIT = 1024 * 1024

export interface PspRequest {
  readonly method: "GET" | "POST" | "PUT" | "DELETE"
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  /** Already encoded (form, JSON, or multipart bytes), with its content type among `headers`. */
  readonly body?: string | Uint8Array
}

/** A PSP's answer: any status, the body as text and, when it is JSON, parsed. */
export interface PspResponse {
  readonly status: number
  readonly text: string
  readonly json: unknown
}

export interface PspTimeouts {
  readonly connectTimeoutMs: number
  /** From sending the request to the end of the answer. */
  readonly timeoutMs: number
}

/** A PSP's answer to one call, as its connector reads it: the object, or the PSP's error with the HTTP status. */
export type PspAnswer<E> =
  | { readonly _tag: "Ok"; readonly json: unknown }
  | { readonly _tag: "Failed"; readonly status: number; readonly error: E }

/**
 * Reads a 2xx body with `schema`, for the PSP named `psp`. A body we cannot read means the PSP acted
 * and we do not know how: the outcome is unknown and reconciliation asks again, never a guess.
 */
export const answerReader = (psp: string) => <A, I>(schema: Schema.Schema<A, I>, what: string) => (json: unknown) =>
  Effect.mapError(Schema.decodeUnknown(schema)(json), () => new ConnectorOutcomeUnknown({ reason: `${psp} ${what}: unreadable answer` }))

/** The address of one call: the connection's base URL, the path, and the query when there is one. */
export const callUrl = (baseUrl: string, request: PspCallRequest) =>
  request.query === undefined ? `${baseUrl}${request.path}` : `${baseUrl}${request.path}?${new URLSearchParams(request.query).toString()}`

/** What every call to a PSP's API says: its method and path, a query, and the idempotency key of a call that moves money. */
export interface PspCallRequest {
  readonly method: "GET" | "POST" | "PUT" | "DELETE"
  readonly path: string
  readonly query?: Readonly<Record<string, string>>
  readonly idempotencyKey?: string
}

/** One call to a PSP's API, with what its wire adds (`Body`); `what` names the call in our reasons. */
export type PspCall<E, Body = {}> = (
  what: string,
  request: PspCallRequest & Body
) => Effect.Effect<PspAnswer<E>, ConnectorUnavailable | ConnectorOutcomeUnknown>

/** A connector's settings for its calls' bounds (every HTTP connector has both). */
export interface CallBounds {
  readonly connect_timeout_ms: number
  readonly timeout_ms: number
}

/**
 * One connection's client, its calls' timeouts (its bounds) and where its calls go: its `base_url`,
 * else the PSP's `defaultBaseUrl` (one for both modes, or one per mode for a PSP with a sandbox host).
 * In live mode the client reaches only `liveHosts`.
 */
export const connectionClient = (
  http: PspHttp["Type"],
  connection: { readonly livemode: boolean; readonly base_url: string | null },
  bounds: CallBounds,
  liveHosts: ReadonlyArray<string>,
  defaultBaseUrl: string | { readonly live: string; readonly test: string }
) => {
  const fallback = typeof defaultBaseUrl === "string" ? defaultBaseUrl : connection.livemode ? defaultBaseUrl.live : defaultBaseUrl.test
  const timeouts: PspTimeouts = { connectTimeoutMs: bounds.connect_timeout_ms, timeoutMs: bounds.timeout_ms }
  return {
    client: http.client({ ...timeouts, livemode: connection.livemode, liveHosts }),
    timeouts,
    baseUrl: (connection.base_url ?? fallback).replace(/\/+$/, "")
  }
}

/** Where one connection's calls go, and how: what `connectionClient` gives. */
export interface CallDestination {
  readonly client: HttpClient.HttpClient
  readonly timeouts: PspTimeouts
  readonly baseUrl: string
}

/**
 * Sends one call of a connection: the request's method and address, within its timeouts. The body is
 * `encoded` if given, else the request's `body` as JSON; JSON is asked for and declared unless the
 * PSP's `headers` (its credential, its idempotency header) say otherwise.
 */
export const sendCall = (
  destination: CallDestination,
  label: string,
  request: PspCallRequest & { readonly body?: unknown },
  headers: Readonly<Record<string, string>>,
  encoded?: string | Uint8Array
) => {
  const body = encoded ?? (request.body === undefined ? undefined : JSON.stringify(request.body))
  return exchange(
    destination.client,
    {
      method: request.method,
      url: callUrl(destination.baseUrl, request),
      headers: { accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      ...(body === undefined ? {} : { body })
    },
    destination.timeouts,
    label
  )
}

/** The call's idempotency key under the PSP's own header name, when the call has one. */
export const keyedBy = (header: string, key: string | undefined): Record<string, string> => key === undefined ? {} : { [header]: key }

/**
 * Transport errors raised before a byte of the request can have left: nothing reached the PSP, so
 * the request is safe to send again, here or elsewhere. Anything else may have been processed.
 */
const NOT_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
  "CERT_HAS_EXPIRED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "ERR_TLS_CERT_ALTNAME_INVALID"
])

/** The error codes along a cause chain (fetch wraps the socket's error in a TypeError). */
const codesOf = (error: unknown): ReadonlyArray<string> => {
  const codes: Array<string> = []
  let current: unknown = error
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string") codes.push(code)
    current = (current as { cause?: unknown }).cause
  }
  return codes
}

/** What a transport failure means for the request: never reached the PSP, or may have. */
export const classifyTransportError = (error: unknown, what: string): ConnectorUnavailable | ConnectorOutcomeUnknown => {
  // The egress client knows whether the request left: its word is final.
  if (error instanceof EgressFailure) {
    // The socket's own code beside our words, for the attempt record and the logs.
    const reason = `${what}: ${error.code.startsWith("EGRESS_") ? error.message : `${error.message.replace(/\.$/, "")} (${error.code}).`}`
    return error.sent ? new ConnectorOutcomeUnknown({ reason }) : new ConnectorUnavailable({ reason })
  }
  const codes = codesOf(error)
  const notSent = codes.find((code) => NOT_SENT.has(code))
  return notSent !== undefined
    ? new ConnectorUnavailable({ reason: `${what}: ${notSent}` })
    : new ConnectorOutcomeUnknown({ reason: `${what}: ${codes[0] ?? "the connection failed after the request was sent"}` })
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * One exchange with a PSP under the connection's timeouts. Connect failures are
 * `ConnectorUnavailable`; a timeout or a connection lost once the request may have left is
 * `ConnectorOutcomeUnknown`. Statuses are the caller's to judge: every answer is returned.
 * `what` names the call in errors; headers (credentials) never appear in them.
 */
export const exchange = (
  client: HttpClient.HttpClient,
  request: PspRequest,
  timeouts: PspTimeouts,
  what: string
): Effect.Effect<PspResponse, ConnectorUnavailable | ConnectorOutcomeUnknown> => {
  const base = HttpClientRequest.make(request.method)(request.url)
  const withHeaders = HttpClientRequest.setHeaders(base, request.headers)
  const built = request.body === undefined
    ? withHeaders
    : typeof request.body === "string"
    ? HttpClientRequest.bodyText(withHeaders, request.body, request.headers["content-type"])
    : HttpClientRequest.bodyUint8Array(withHeaders, request.body, request.headers["content-type"])
  return client.execute(built).pipe(
    Effect.flatMap((response) => Effect.map(response.text, (text): PspResponse => ({ status: response.status, text, json: parseJson(text) }))),
    Effect.catchAll((error) =>
      Effect.fail(
        error._tag === "RequestError"
          ? error.reason === "Transport" ? classifyTransportError(error.cause, what) : new ConnectorUnavailable({
            reason: `${what}: the request could not be built (${error.reason})`
          })
          : classifyTransportError(error.cause, what)
      )
    ),
    // API requests run uninterruptible (a client hanging up must not stop a payment half way), and a
    // timeout only ends what it can interrupt: without this, the deadline waited for the PSP's answer.
    Effect.interruptible,
    Effect.timeoutFail({
      duration: Duration.millis(timeouts.timeoutMs),
      onTimeout: () => new ConnectorOutcomeUnknown({ reason: `${what}: no answer within ${timeouts.timeoutMs} ms`, timedOut: true })
    }),
    Effect.tap((response) => Effect.annotateCurrentSpan("http.response.status_code", response.status)),
    // The call's name, method and path: the query, the headers (credentials) and the body stay out.
    traced("psp http", () => ({ kind: "client", attributes: { "psp.call": what, "http.request.method": request.method, "url.path": pathOf(request.url) } }))
  )
}

const pathOf = (url: string) => {
  try {
    return new URL(url).pathname
  } catch {
    return "(invalid URL)"
  }
}
