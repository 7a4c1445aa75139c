import { type PrivateAddresses, traced, webhookAccess, type WebhookResponse, WebhookSender } from "@orchestrator/core"
import { makeEgressClient, type Resolve } from "@orchestrator/egress"
import { Effect, Layer } from "effect"

/** How many bytes of a receiver's answer are kept. */
export const RESPONSE_BODY_LIMIT = 1024

export interface NodeWebhookSenderOptions {
  /** Name resolution; the system resolver by default. Tests put a resolver of their own here. */
  readonly resolve?: Resolve
  /** Connecting and answering, at most: the caller's own timeout normally comes first. */
  readonly deadlineMs?: number
  /**
   * Whether test-mode deliveries may reach private and loopback addresses (a merchant developing
   * locally); live ones never do. The operator's setting; allowed here unless said otherwise, the
   * application passes what the operator chose.
   */
  readonly privateAddresses?: PrivateAddresses
}

/**
 * Sends webhooks through the egress client: the egress policy of the delivery's mode checked on the
 * URL and on every address its host resolves to when the socket connects (live: https, public
 * addresses only), redirects never followed (a 3xx is the answer), and the first KiB of the answer
 * kept, after which reading stops and the socket is dropped.
 */
export const makeNodeWebhookSender = (options: NodeWebhookSenderOptions = {}) => {
  const egress = makeEgressClient(options.resolve === undefined ? {} : { resolve: options.resolve })
  const privateAddresses = options.privateAddresses ?? "allow"
  return WebhookSender.of({
    send: (request) =>
      egress.send({
        method: "POST",
        url: request.url,
        headers: request.headers,
        body: request.body,
        access: webhookAccess({ livemode: request.livemode, privateAddresses }),
        deadlineMs: options.deadlineMs ?? 15_000,
        answerLimit: { bytes: RESPONSE_BODY_LIMIT, beyond: "truncate" },
        // A kept-alive socket the receiver had closed: once more on a new one (delivery is at-least-once anyway).
        retryOnStaleConnection: true
      }).pipe(
        Effect.match({
          onSuccess: (answer): WebhookResponse => ({ _tag: "Answered", status: answer.status, body: new TextDecoder().decode(answer.body) }),
          onFailure: (failure): WebhookResponse => ({ _tag: "Unreachable", reason: failure.message })
        }),
        Effect.tap((response) =>
          Effect.annotateCurrentSpan(
            response._tag === "Answered" ? { "http.response.status_code": response.status } : { "webhook.unreachable": response.reason }
          )
        ),
        // The receiver's host only: its path and query are the merchant's and may hold a token.
        traced("webhook send", () => ({ kind: "client", attributes: { "http.request.method": "POST", "server.address": hostOf(request.url) } }))
      )
  })
}

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname
  } catch {
    return "(invalid URL)"
  }
}

/** The sender the application uses, under the operator's setting for test-mode deliveries. */
export const NodeWebhookSenderLive = (privateAddresses: PrivateAddresses) => Layer.sync(WebhookSender, () => makeNodeWebhookSender({ privateAddresses }))
