import { addressAllowed, type EgressAccess, EgressFailure, egressUrlProblem } from "@orchestrator/core"
import { Effect } from "effect"
import * as dns from "node:dns"
import * as http from "node:http"
import * as https from "node:https"
import type { Socket } from "node:net"
import { policedLookup, type Resolve } from "./EgressLookup.js"

export type { Resolve, ResolvedAddress } from "./EgressLookup.js"

export interface EgressRequest {
  readonly method: string
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: Uint8Array
  /** Where the call may go: see `EgressPolicy`. */
  readonly access: EgressAccess
  /** Connecting and the whole answer: when it passes, the socket is destroyed, whatever the peer does. */
  readonly deadlineMs: number
  /** Connecting alone (name, TCP, TLS), within the deadline: a call that never connected sent nothing. */
  readonly connectTimeoutMs?: number
  /**
   * The most of the answer read. Past it reading stops and the socket is destroyed; the call fails
   * (`fail`) or keeps what it read so far (`truncate`).
   */
  readonly answerLimit: { readonly bytes: number; readonly beyond: "fail" | "truncate" }
  /**
   * Sent once more on a new connection when a kept-alive one turns out closed by the peer. Only
   * for calls whose repetition is harmless (webhooks: at-least-once anyway): the reset may also
   * come after the peer acted on the request, which a PSP call must report as an unknown outcome.
   */
  readonly retryOnStaleConnection?: boolean
}

export interface EgressAnswer {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
  /** At most `answerLimit.bytes`. */
  readonly body: Uint8Array<ArrayBuffer>
}

const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true })

/** Errors that leave no doubt: the request never left (the policy refused it, or no connection was made). */
const refused = (message: string) => new EgressFailure({ sent: false, code: "EGRESS_REFUSED", message })

const failureOf = (error: NodeJS.ErrnoException, connected: boolean): EgressFailure => {
  if (error instanceof EgressFailure) return error
  if (error.code === "EGRESS_REFUSED") return refused(error.message)
  const code = error.code ?? "ECONNRESET"
  return new EgressFailure({ sent: connected, code, message: describe(code, connected) })
}

/** A transport error in our own words (never the peer's). */
const describe = (code: string, connected: boolean): string => {
  switch (code) {
    case "ECONNREFUSED":
      return "Connection refused."
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "The host name does not resolve."
    case "ECONNRESET":
      return connected ? "The connection was reset." : "The connection was reset before the request was sent."
    case "CERT_HAS_EXPIRED":
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "SELF_SIGNED_CERT_IN_CHAIN":
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return "The TLS certificate was not accepted."
    default:
      return "The connection failed."
  }
}

/** Reads an answer up to its limit: past it, fails the call or keeps what was read, and destroys the socket. */
const readAnswer = (
  incoming: http.IncomingMessage,
  answerLimit: EgressRequest["answerLimit"],
  call: {
    readonly settled: () => boolean
    readonly settle: (effect: Effect.Effect<EgressAnswer, EgressFailure>) => void
    readonly abort: (failure: EgressFailure) => void
  }
) => {
  const limit = answerLimit.bytes
  const chunks: Array<Buffer> = []
  let size = 0
  const answer = (): EgressAnswer => ({
    status: incoming.statusCode ?? 0,
    headers: incoming.headers,
    body: new Uint8Array(Buffer.concat(chunks).subarray(0, limit))
  })
  const tooLarge = () => {
    if (answerLimit.beyond === "truncate") {
      call.settle(Effect.succeed(answer()))
      incoming.destroy()
    } else {
      call.abort(new EgressFailure({ sent: true, code: "EGRESS_ANSWER_TOO_LARGE", message: `The answer is larger than ${limit} bytes.` }))
    }
  }
  // Refused before a byte of it is read when it says how long it is.
  const declared = Number(incoming.headers["content-length"])
  if (answerLimit.beyond === "fail" && Number.isFinite(declared) && declared > limit) return tooLarge()
  incoming.on("data", (chunk: Buffer) => {
    if (call.settled()) return
    chunks.push(chunk)
    size += chunk.length
    if (size > limit || (size === limit && answerLimit.beyond === "truncate")) tooLarge()
  })
  incoming.on("end", () => call.settle(Effect.succeed(answer())))
  incoming.on("error", (error: NodeJS.ErrnoException) => call.abort(failureOf(error, true)))
}

/** The call's deadline, and its connect timeout when shorter: each aborts with what it proves was (not) sent. */
const armDeadlines = (
  request: EgressRequest,
  connected: () => boolean,
  abort: (failure: EgressFailure) => void
): Array<NodeJS.Timeout> => {
  const timers = [setTimeout(() =>
    abort(
      connected()
        ? new EgressFailure({ sent: true, code: "EGRESS_DEADLINE", message: `No complete answer within ${request.deadlineMs} ms.` })
        : new EgressFailure({ sent: false, code: "EGRESS_CONNECT_TIMEOUT", message: `No connection within ${request.deadlineMs} ms.` })
    ), request.deadlineMs)]
  if (request.connectTimeoutMs !== undefined && request.connectTimeoutMs < request.deadlineMs) {
    timers.push(setTimeout(() => {
      if (!connected()) {
        abort(new EgressFailure({ sent: false, code: "EGRESS_CONNECT_TIMEOUT", message: `No connection within ${request.connectTimeoutMs} ms.` }))
      }
    }, request.connectTimeoutMs))
  }
  return timers
}

/**
 * The service's one way out to the network (PSPs, webhook receivers, itself). For every call:
 * the URL is checked against the egress policy before anything is sent, and every address its
 * host resolves to is checked again in the socket's `lookup`, at connect time (so DNS rebinding
 * reaches nothing; an IP literal, which Node connects to without a lookup, is judged by the URL
 * check, after WHATWG URL has written it as a dotted quad or a compressed IPv6 whatever form it
 * was given in). Redirects are never followed: a 3xx is the answer. One deadline covers connecting
 * and the whole answer and destroys the socket when it passes; the answer is read up to a limit
 * and the socket destroyed past it, so a peer streaming without end costs nothing.
 *
 * Connections are kept alive between calls, in pools per protocol and per address rule: a socket
 * opened where private addresses were allowed never carries a call that may only reach public
 * ones. A call on a kept-alive socket the peer had closed meanwhile may be sent once more on a new one.
 */
export const makeEgressClient = (options: { readonly resolve?: Resolve } = {}) => {
  const resolve = options.resolve ?? systemResolve
  const agentOptions = { keepAlive: true, maxSockets: 64, maxFreeSockets: 64, scheduling: "lifo" as const }
  const agents = new Map<string, http.Agent>()
  const agentFor = (isHttps: boolean, access: EgressAccess) => {
    const key = `${isHttps ? "https" : "http"} ${addressAllowed("127.0.0.1", access) ? "any" : "public"}`
    const existing = agents.get(key)
    if (existing !== undefined) return existing
    const agent = isHttps ? new https.Agent(agentOptions) : new http.Agent(agentOptions)
    agents.set(key, agent)
    return agent
  }

  const send = (request: EgressRequest): Effect.Effect<EgressAnswer, EgressFailure> =>
    Effect.async<EgressAnswer, EgressFailure>((resume) => {
      const problem = egressUrlProblem(request.url, request.access)
      if (problem !== undefined) {
        resume(Effect.fail(refused(`This address may not be called: ${problem}.`)))
        return
      }
      const url = new URL(request.url)
      const isHttps = url.protocol === "https:"
      const lookup = policedLookup(resolve, request.access)

      let settled = false
      let connected = false
      let outgoing: http.ClientRequest | undefined
      const timers: Array<NodeJS.Timeout> = []
      const settle = (effect: Effect.Effect<EgressAnswer, EgressFailure>) => {
        if (settled) return
        settled = true
        timers.forEach(clearTimeout)
        resume(effect)
      }
      const abort = (failure: EgressFailure) => {
        settle(Effect.fail(failure))
        outgoing?.destroy()
      }
      timers.push(...armDeadlines(request, () => connected, abort))

      const onAnswer = (incoming: http.IncomingMessage) => readAnswer(incoming, request.answerLimit, { settled: () => settled, settle, abort })

      const sendOnce = (mayRetry: boolean) => {
        connected = false
        const options: http.RequestOptions = {
          method: request.method,
          headers: { ...request.headers, ...(request.body === undefined ? {} : { "content-length": String(request.body.byteLength) }) },
          lookup,
          agent: agentFor(isHttps, request.access)
        }
        let sent: http.ClientRequest
        try {
          sent = (isHttps ? https : http).request(url, options, onAnswer)
        } catch (error) {
          // Node refuses a header it cannot send (a control character) before connecting.
          return abort(new EgressFailure({ sent: false, code: (error as NodeJS.ErrnoException).code ?? "EINVAL", message: "The request could not be built." }))
        }
        outgoing = sent
        const onConnected = () => {
          connected = true
        }
        sent.on("socket", (socket: Socket) => {
          // A kept-alive socket is connected already; a new one once TCP (and TLS) are up.
          if (sent.reusedSocket || !socket.connecting && !isHttps) onConnected()
          else socket.once(isHttps ? "secureConnect" : "connect", onConnected)
        })
        sent.on("error", (error: NodeJS.ErrnoException) => {
          if (settled) return
          // A kept-alive socket the peer had closed before this request: once more on a new one.
          if (mayRetry && request.retryOnStaleConnection === true && sent.reusedSocket && error.code === "ECONNRESET") return sendOnce(false)
          abort(failureOf(error, connected))
        })
        sent.end(request.body === undefined ? undefined : Buffer.from(request.body))
      }
      sendOnce(true)
      // Interrupted (the caller's own timeout, a shutdown): the socket goes now, no waiting for the peer.
      return Effect.sync(() => {
        settled = true
        timers.forEach(clearTimeout)
        outgoing?.destroy()
      })
    })

  /** Closes every kept-alive connection. */
  const close = () => agents.forEach((agent) => agent.destroy())

  return { send, close }
}

export type EgressClient = ReturnType<typeof makeEgressClient>
