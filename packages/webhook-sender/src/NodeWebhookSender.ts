import { isIpLiteral, isPublicAddress } from "@orchestrator/core/webhooks/EndpointAddresses"
import { type WebhookResponse, WebhookSender } from "@orchestrator/core/webhooks/WebhookSender"
import { Effect, Layer } from "effect"
import * as dns from "node:dns"
import * as http from "node:http"
import * as https from "node:https"
import type { LookupFunction } from "node:net"

/** How many bytes of a receiver's answer are kept. */
export const RESPONSE_BODY_LIMIT = 1024

interface Address {
  readonly address: string
  readonly family: number
}

export interface NodeWebhookSenderOptions {
  /** Name resolution; the system resolver by default. Tests put a resolver of their own here. */
  readonly resolve?: (hostname: string) => Promise<ReadonlyArray<Address>>
  /** A socket silent this long is given up on: the caller's own timeout normally comes first. */
  readonly socketTimeoutMs?: number
  /**
   * Test-mode deliveries may reach private and loopback addresses (a merchant developing locally).
   * An operator whose test keys are handed to people it does not trust sets this, so no delivery
   * can reach its internal network (and read the answers back from the delivery's attempts).
   */
  readonly publicAddressesOnly?: boolean
}

const systemResolve = (hostname: string) => dns.promises.lookup(hostname, { all: true, verbatim: true })

const whose = (livemode: boolean) => livemode ? "live-mode webhooks" : "webhooks on this service"

const unreachable = (reason: string): WebhookResponse => ({ _tag: "Unreachable", reason })

/** A transport error as the words a merchant sees in `last_error`. */
const describe = (error: NodeJS.ErrnoException): string => {
  switch (error.code) {
    case "ECONNREFUSED":
      return "Connection refused."
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "The host name does not resolve."
    case "ECONNRESET":
      return "The connection was reset."
    case "ETIMEDOUT":
      return "The connection timed out."
    default:
      return error.code === undefined ? error.message : `${error.code}: ${error.message}`
  }
}

/**
 * Sends webhooks with Node's HTTP client. Redirects are never followed (a 3xx is the answer), at most
 * 1 KiB of the answer is read, and in live mode every address the host resolves to is checked right
 * when the socket connects to it, so a name that later resolves somewhere private (DNS rebinding)
 * reaches nothing.
 *
 * Connections are kept alive between deliveries to the same receiver (most of a backlog goes to a few
 * of them): a socket is only reused by the mode that opened it, so a test-mode socket to a private
 * address never carries a live delivery, and a request on a socket the receiver closed meanwhile is
 * sent once more on a new one.
 */
export const makeNodeWebhookSender = (options: NodeWebhookSenderOptions = {}) => {
  const resolve = options.resolve ?? systemResolve
  const agentOptions = { keepAlive: true, maxSockets: 64, maxFreeSockets: 64, scheduling: "lifo" as const }
  const agents = {
    live: { "http:": new http.Agent(agentOptions), "https:": new https.Agent(agentOptions) },
    test: { "http:": new http.Agent(agentOptions), "https:": new https.Agent(agentOptions) }
  }
  return WebhookSender.of({
    send: (request) =>
      Effect.async<WebhookResponse>((resume) => {
        const url = new URL(request.url)
        const host = url.hostname.replace(/^\[|\]$/g, "")
        const publicOnly = request.livemode || options.publicAddressesOnly === true
        if (request.livemode && url.protocol !== "https:") {
          resume(Effect.succeed(unreachable("Live-mode webhooks go to public https addresses only.")))
          return
        }
        if (publicOnly && isIpLiteral(host) && !isPublicAddress(host)) {
          resume(Effect.succeed(unreachable(`${host} is a private, loopback or link-local address, which ${whose(request.livemode)} may not reach.`)))
          return
        }
        // Node asks for one address or, when it races IPv4 and IPv6, for all of them.
        const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
          resolve(hostname).then(
            (addresses) => {
              const allowed = publicOnly ? addresses.filter((each) => isPublicAddress(each.address)) : addresses
              if (allowed.length === 0) {
                const error: NodeJS.ErrnoException = new Error(
                  `${hostname} resolves only to private, loopback or link-local addresses, which ${whose(request.livemode)} may not reach.`
                )
                error.code = "EADDRNOTALLOWED"
                return callback(error, "", 4)
              }
              if (lookupOptions.all === true) return (callback as any)(null, allowed)
              callback(null, allowed[0]!.address, allowed[0]!.family)
            },
            (error) => callback(error, "", 4)
          )
        }
        const isHttps = url.protocol === "https:"
        const agent = agents[request.livemode ? "live" : "test"][isHttps ? "https:" : "http:"]
        let settled = false
        let outgoing: http.ClientRequest | undefined
        const finish = (response: WebhookResponse) => {
          if (settled) return
          settled = true
          resume(Effect.succeed(response))
        }
        const sendOnce = (mayRetry: boolean) => {
          outgoing = (isHttps ? https : http).request(url, {
            method: "POST",
            headers: { ...request.headers, "content-length": String(request.body.byteLength) },
            lookup,
            timeout: options.socketTimeoutMs ?? 15_000,
            agent
          }, (incoming) => {
            const chunks: Array<Buffer> = []
            let size = 0
            const done = () =>
              finish({
                _tag: "Answered",
                status: incoming.statusCode ?? 0,
                body: Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString("utf8")
              })
            incoming.on("data", (chunk: Buffer) => {
              chunks.push(chunk)
              size += chunk.length
              // Enough read: the rest is not wanted, and the socket is not reused.
              if (size >= RESPONSE_BODY_LIMIT) {
                done()
                incoming.destroy()
              }
            })
            incoming.on("end", done)
            incoming.on("error", done)
          })
          const sent = outgoing
          sent.on("timeout", () => sent.destroy(Object.assign(new Error("No answer."), { code: "ETIMEDOUT" })))
          sent.on("error", (error: NodeJS.ErrnoException) => {
            // A kept-alive socket the receiver had closed before this request: send it once more on a
            // new one (should the receiver have got it after all, delivery is at-least-once anyway).
            if (mayRetry && sent.reusedSocket && error.code === "ECONNRESET" && !settled) return sendOnce(false)
            finish(unreachable(error.code === "EADDRNOTALLOWED" ? error.message : describe(error)))
          })
          sent.end(request.body)
        }
        sendOnce(true)
        return Effect.sync(() => {
          settled = true
          outgoing?.destroy()
        })
      })
  })
}

export const NodeWebhookSenderLive = Layer.sync(WebhookSender, () => makeNodeWebhookSender())

/** The sender for an operator who keeps test-mode deliveries off private addresses too. */
export const NodeWebhookSenderPublicOnly = Layer.sync(WebhookSender, () => makeNodeWebhookSender({ publicAddressesOnly: true }))
