import { HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import {
  type ApiErrorShape,
  CurrentRequestId,
  encodeApiError,
  failWith,
  HeadersTooLarge,
  InvalidRequest,
  MethodNotImplemented,
  PayloadTooLarge,
  RequestTimeout,
  statusOf
} from "@orchestrator/api"
import { API_VERSION, makeId } from "@orchestrator/core"
import { Clock, Effect, Layer, Runtime } from "effect"
import * as http from "node:http"
import type * as net from "node:net"
import { MAX_BODY_BYTES } from "./Edge.js"

/** The request line and headers together; past it, 431. Node's own default, made explicit. */
export const MAX_HEADER_BYTES = 16 * 1024

/**
 * How much of a refused body (413) is still read and thrown away after the answer, so the client,
 * still sending, reads the answer instead of a reset. Past it the connection is cut.
 */
export const MAX_DRAINED_BYTES = 16 * MAX_BODY_BYTES

export interface HttpServerOptions {
  readonly port: number
  /** The address to listen on; every interface when absent. */
  readonly host?: string
  /** Until the headers are in; 408 after. Node's default: 60 s. */
  readonly headersTimeout?: number
  /** Until the whole request is in; 408 after. Node's default: 300 s. */
  readonly requestTimeout?: number
  /** How often the two timeouts are checked. Node's default: 30 s. */
  readonly connectionsCheckingInterval?: number
  /**
   * Whether a client's trace context (`traceparent`, B3) may parent the request's trace
   * (`ORCHESTRATOR_TRUST_INCOMING_TRACES`). Not by default: a client could otherwise force sampling and
   * splice its spans into the operator's traces, so each request starts a trace of its own.
   */
  readonly trustIncomingTraces?: boolean
  /** Whether `/healthz` and `/readyz` are traced (`ORCHESTRATOR_TRACE_PROBES`): not by default. */
  readonly traceProbes?: boolean
}

/** The headers a server span takes its parent from (W3C trace context, B3 single and multi). */
const TRACE_CONTEXT_HEADERS = ["traceparent", "tracestate", "b3", "x-b3-traceid", "x-b3-spanid", "x-b3-parentspanid", "x-b3-sampled", "x-b3-flags"]

/**
 * Drops a client's trace context before anything reads the request: the server span is opened from
 * the request's headers before any middleware of ours runs, so this is done on Node's request itself,
 * ahead of the listener that hands it to the application.
 */
const ignoreIncomingTraces = (server: http.Server) =>
  server.prependListener("request", (request: http.IncomingMessage) => {
    for (const name of TRACE_CONTEXT_HEADERS) delete request.headers[name]
  })

/**
 * A request whose reading is abandoned before its body is all in (over 1 MiB, read as a stream) is
 * drained instead of destroyed: Node would otherwise destroy the socket with it, and the client
 * would get a reset instead of the 413 the edge is about to write. The rest of the body is read
 * and dropped, up to `MAX_DRAINED_BYTES`, and the connection stays usable.
 */
class DrainingIncomingMessage extends http.IncomingMessage {
  private draining = false
  private drained = 0

  override push(chunk: unknown, encoding?: BufferEncoding): boolean {
    if (!this.draining) return super.push(chunk, encoding)
    if (chunk !== null) {
      this.drained += (chunk as Uint8Array).length
      if (this.drained > MAX_DRAINED_BYTES) this.socket.destroy()
    }
    // Taken: the parser keeps reading the socket instead of pausing it.
    return true
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.complete || this.socket === null || this.socket.destroyed) return super._destroy(error, callback)
    this.draining = true
    callback(error)
  }
}

const METHOD_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ \S/

/** What Node's parser (or its timeouts) refused, as the error the client is told. */
const refusalOf = (error: NodeJS.ErrnoException & { readonly rawPacket?: Buffer }): Effect.Effect<never, ApiErrorShape> => {
  const malformed = (message: string) => failWith(InvalidRequest, { code: "request_malformed", message })
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return failWith(HeadersTooLarge, {
        message: `The request line and headers are larger than ${MAX_HEADER_BYTES} bytes together; send long values in the body.`
      })
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return failWith(RequestTimeout, { message: "The request did not arrive in time; send it again." })
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return failWith(PayloadTooLarge, { message: "The chunked body's chunk extensions are too large." })
    case "HPE_INVALID_METHOD":
      // A token where the method goes is a method we do not know (501); anything else is not HTTP.
      return METHOD_TOKEN.test(error.rawPacket?.subarray(0, 64).toString("latin1") ?? "")
        ? failWith(MethodNotImplemented, {
          message: "The request method is not one this service implements."
        })
        : malformed("The request is not HTTP: it does not start with a method.")
    case "HPE_INVALID_CONTENT_LENGTH":
    case "HPE_UNEXPECTED_CONTENT_LENGTH":
      return malformed("The Content-Length header must be one decimal number of bytes, sent once.")
    case "HPE_INVALID_TRANSFER_ENCODING":
      return malformed("Send either Content-Length or Transfer-Encoding: chunked, never both, and no other transfer coding.")
    case "HPE_INVALID_HEADER_TOKEN":
    case "HPE_LF_EXPECTED":
    case "HPE_CR_EXPECTED":
      return malformed("A header name or value holds a character HTTP does not allow (such as a control character).")
    case "HPE_INVALID_URL":
    case "HPE_INVALID_CONSTANT":
    case "HPE_INVALID_VERSION":
      return malformed("The request line must be METHOD, one space, the path without spaces or control characters, one space, HTTP/1.1.")
    case "HPE_INVALID_CHUNK_SIZE":
    case "HPE_STRICT":
      return malformed("The chunked body is not well formed.")
    default:
      return malformed("The request is not valid HTTP/1.1.")
  }
}

/** The raw HTTP answer to a refused request: the error body, its ids, and the end of the connection. */
const rawAnswer = (error: ApiErrorShape, requestId: string) => {
  const body = encodeApiError(error)
  const status = statusOf(error)
  return `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? "Error"}\r\n` +
    "Content-Type: application/json\r\n" +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `Request-Id: ${requestId}\r\n` +
    `Service-Version: ${API_VERSION}\r\n` +
    "Connection: close\r\n" +
    `\r\n${body}`
}

/**
 * Answers what Node refuses before a request exists (`clientError`): a malformed request line or
 * header, a bad Content-Length, headers over 16 KiB, a timeout. The documented error body goes out
 * with a `Request-Id` before the connection is closed; the rest of what the client sends is read
 * until it closes too (a reset could make it lose the answer), or for a few seconds at most.
 */
const answerClientErrors = (server: http.Server, runtime: Runtime.Runtime<never>) => {
  const answered = new WeakSet<net.Socket>()
  server.on("clientError", (error: NodeJS.ErrnoException, socket: net.Socket) => {
    // Already answered: the parser refuses each further packet; they are dropped until the client closes.
    if (answered.has(socket)) return
    if (!socket.writable || error.code === "ECONNRESET" || error.code === "EPIPE") {
      socket.destroy()
      return
    }
    answered.add(socket)
    // An answer already under way for this connection cannot be followed by another.
    const inFlight = (socket as { _httpMessage?: http.ServerResponse | null })._httpMessage
    if (inFlight?.headersSent === true) {
      socket.destroy()
      return
    }
    const answer = Effect.gen(function*() {
      const requestId = makeId("req", yield* Clock.currentTimeMillis)
      const refusal = yield* Effect.flip(refusalOf(error)).pipe(Effect.locally(CurrentRequestId, requestId))
      yield* Effect.logInfo(`(unparsed request) ${statusOf(refusal)} ${error.code ?? "unknown"}`).pipe(
        Effect.annotateLogs("request_id", requestId)
      )
      return rawAnswer(refusal, requestId)
    })
    socket.end(Runtime.runSync(runtime)(answer))
    socket.setTimeout(5_000, () => socket.destroy())
  })
}

const makeServer = (options: HttpServerOptions, runtime: Runtime.Runtime<never>) => {
  const server = http.createServer({
    IncomingMessage: DrainingIncomingMessage,
    maxHeaderSize: MAX_HEADER_BYTES,
    // A missing Host is answered by the edge, with the error body, instead of Node's empty 400.
    requireHostHeader: false,
    ...(options.headersTimeout === undefined ? {} : { headersTimeout: options.headersTimeout }),
    ...(options.requestTimeout === undefined ? {} : { requestTimeout: options.requestTimeout }),
    ...(options.connectionsCheckingInterval === undefined ? {} : { connectionsCheckingInterval: options.connectionsCheckingInterval })
  })
  answerClientErrors(server, runtime)
  if (options.trustIncomingTraces !== true) ignoreIncomingTraces(server)
  return server
}

/**
 * The handlers running now, each counted from its start to its very end, whether its client is still
 * there or not. A handler whose client hung up keeps running (the API's writes are uninterruptible,
 * so a payment is not left half made); Node's `close` only waits for open sockets, not for it.
 */
const runningHandlers = () => {
  let running = 0
  let waiting: Array<() => void> = []
  const finished = Effect.sync(() => {
    running--
    if (running === 0) { for (const resume of waiting.splice(0)) resume() }
  })
  return {
    track: <A, E, R>(handler: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.uninterruptibleMask((restore) => Effect.zipRight(Effect.sync(() => running++), Effect.ensuring(restore(handler), finished))),
    count: () => running,
    /** Once every handler running now (or started meanwhile) has ended. */
    drained: Effect.async<void>((resume) => {
      if (running === 0) return resume(Effect.void)
      const done = () => resume(Effect.void)
      waiting.push(done)
      return Effect.sync(() => {
        waiting = waiting.filter((each) => each !== done)
      })
    })
  }
}

/**
 * The service's HTTP server on Node, for `orchestrator start`/`http` and the tests alike: every
 * answer, those of Node's own parser included, is the documented error body with a `Request-Id`.
 * On shutdown it stops accepting connections, waits for the open ones to be answered, then for every
 * handler still running (those whose client left included) before anything it uses (the database
 * pool) is closed.
 */
export const HttpServerNodeLive = (options: HttpServerOptions) =>
  Layer.merge(
    Layer.scoped(
      HttpServer.HttpServer,
      Effect.gen(function*() {
        const runtime = yield* Effect.runtime<never>()
        const handlers = runningHandlers()
        // Added before the server exists, so it runs after the server has closed: no handler starts
        // after it, and those whose client already left are waited for too.
        yield* Effect.addFinalizer(() => handlers.drained)
        const server = yield* NodeHttpServer.make(
          () => makeServer(options, runtime),
          options.host === undefined ? { port: options.port } : { port: options.port, host: options.host }
        )
        // Added after, so it runs first: what is running at the moment the stop begins.
        yield* Effect.addFinalizer(() =>
          Effect.suspend(() =>
            Effect.logInfo(
              handlers.count() === 0 ? "Shutting down: no request running" : `Shutting down: waiting for ${handlers.count()} running request(s) to finish`
            )
          )
        )
        return HttpServer.make({
          address: server.address,
          serve: (app, middleware) =>
            middleware === undefined
              ? server.serve(handlers.track(app))
              : server.serve(handlers.track(app), middleware)
        })
      })
    ),
    NodeHttpServer.layerContext
  )
