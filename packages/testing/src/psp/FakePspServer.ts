import * as http from "node:http"
import type { AddressInfo, Socket } from "node:net"
import type { RecordedExchange } from "./OpenApiContract.js"

/**
 * The faults a fake PSP can inject on its next request: hung (processed, never answered), reset after
 * processing, answered late, or an error answer `S` in the PSP's own shape.
 */
export type PspFault<S extends { readonly status: number }> =
  | "hang"
  | "reset"
  /** Processed at once, answered only after `delayMs` (real time): a PSP slower than our deadline. */
  | { readonly delayMs: number }
  | S

/** A status and the JSON body answered with it (`undefined`: an answer without a body). */
export type PspAnswer = [number, unknown]

/** What differs from one fake PSP to another; the server loop around it is the same. */
export interface FakePspOptions<S extends { readonly status: number }> {
  /** The origin request URLs are read against (only their path and query matter). */
  readonly origin: string
  /** The issuer's 3DS page, served under `/fake/3ds/`. */
  readonly challenge: (url: URL, response: http.ServerResponse) => void
  /** An answer before anything is processed or a fault consumed (bad credentials, a bad key), if any. */
  readonly refuse: (request: http.IncomingMessage, idempotencyKey: string | undefined) => PspAnswer | undefined
  /** Which requests take the injected fault and use idempotency keys. */
  readonly keyedMethod: (method: string, url: URL) => boolean
  /** The request header carrying the idempotency key (lower case); `idempotency-key` unless said. */
  readonly idempotencyHeader?: string
  readonly faultAnswer: (fault: S) => PspAnswer
  /** The answer to a key reused with another request; `matchesPath`: whether the path is part of the request. */
  readonly keyReused: PspAnswer
  readonly matchesPath: boolean
  readonly responseHeaders: () => Record<string, string>
  /** Headers added to an answer replayed for its idempotency key. */
  readonly replayHeaders: Record<string, string>
  /** `bytes`: the body as received, for the routes that take files (the text is UTF-8 decoded). */
  readonly handle: (method: string, url: URL, body: string, idempotencyKey: string | undefined, bytes: Uint8Array) => PspAnswer
  /** The answers' media type: `application/json` unless the PSP says otherwise (Mollie: `application/hal+json`). */
  readonly contentType?: string
}

export interface FakePspServer<S extends { readonly status: number }> {
  readonly url: string
  readonly exchanges: Array<RecordedExchange>
  readonly injectFault: (fault: PspFault<S>) => void
  readonly hungRequests: () => number
  readonly close: () => Promise<void>
}

/** What every fake PSP hands its tests from its server: the exchanges, injected faults, and a lost answer. */
export const fakeControls = <S extends { readonly status: number }>(server: FakePspServer<S>) => ({
  exchanges: server.exchanges,
  injectFault: server.injectFault,
  hungRequests: server.hungRequests,
  /** The next request is processed and never answered, as when the PSP's answer is lost. */
  dropNextAnswer: () => server.injectFault("hang")
})

/**
 * Starts a fake PSP on a free port of 127.0.0.1: records every exchange, replays the first answer per
 * idempotency key, and applies the injected fault after the work is done (only the answer is lost).
 */
export const startFakePspServer = async <S extends { readonly status: number }>(
  options: FakePspOptions<S>
): Promise<FakePspServer<S>> => {
  const exchanges: Array<RecordedExchange> = []
  const idempotency = new Map<string, { body: string; path: string; status: number; response: string }>()
  const sockets = new Set<Socket>()
  let fault: PspFault<S> | null = null
  let hung = 0

  const answerFor = (method: string, url: URL, bytes: Buffer, key: string | undefined, replayed: () => void): PspAnswer => {
    const body = bytes.toString("utf8")
    const saved = key === undefined || !options.keyedMethod(method, url) ? undefined : idempotency.get(key)
    if (saved !== undefined) {
      if (saved.body !== body || (options.matchesPath && saved.path !== url.pathname)) return options.keyReused
      replayed()
      return [saved.status, saved.response === "" ? undefined : JSON.parse(saved.response)]
    }
    const [status, json] = options.handle(method, url, body, key, bytes)
    if (key !== undefined && options.keyedMethod(method, url)) {
      idempotency.set(key, { body, path: url.pathname, status, response: json === undefined ? "" : JSON.stringify(json) })
    }
    return [status, json]
  }

  const server = http.createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const bytes = Buffer.concat(chunks)
      const body = bytes.toString("utf8")
      const url = new URL(request.url ?? "/", options.origin)
      if (url.pathname.startsWith("/fake/3ds/")) return options.challenge(url, response)
      const headers = Object.fromEntries(Object.entries(request.headers).map(([key, value]) => [key, Array.isArray(value) ? value.join(",") : value]))
      const method = request.method ?? "GET"
      const answer = (status: number, json: unknown) => {
        const text = json === undefined ? "" : JSON.stringify(json)
        exchanges.push({ method, url: request.url ?? "/", headers, body, bytes, status, responseBody: text })
        const type = json === undefined ? {} : { "content-type": options.contentType ?? "application/json" }
        response.writeHead(status, { ...type, ...options.responseHeaders() }).end(text)
      }
      const key = request.headers[options.idempotencyHeader ?? "idempotency-key"] as string | undefined
      const refused = options.refuse(request, key)
      if (refused !== undefined) return answer(...refused)
      const injected = options.keyedMethod(method, url) ? fault : null
      if (injected !== null) fault = null
      if (injected !== null && typeof injected === "object" && "status" in injected) {
        return answer(...options.faultAnswer(injected))
      }
      const [status, json] = answerFor(method, url, bytes, key, () => {
        for (const [name, value] of Object.entries(options.replayHeaders)) response.setHeader(name, value)
      })
      // The work is done and remembered; only the answer is lost.
      if (injected === "hang") {
        hung++
        return
      }
      if (injected !== null && typeof injected === "object") {
        hung++
        const timer = setTimeout(() => {
          if (!response.destroyed) answer(status, json)
        }, injected.delayMs)
        response.on("close", () => clearTimeout(timer))
        return
      }
      if (injected === "reset") return request.socket.destroy()
      answer(status, json)
    })
  })
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    injectFault: (next) => {
      fault = next
    },
    hungRequests: () => hung,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}
