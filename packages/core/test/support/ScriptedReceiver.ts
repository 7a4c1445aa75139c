import { Clock, Effect, Layer } from "effect"
import { type WebhookRequest, type WebhookResponse, WebhookSender } from "../../src/ports/WebhookSender.js"

/** What the scripted receiver does with a request: answer, refuse the connection, or never answer. */
export type Reaction = WebhookResponse | "hang"

export const answer = (status: number, body = ""): WebhookResponse => ({ _tag: "Answered", status, body })
export const refused: WebhookResponse = { _tag: "Unreachable", reason: "Connection refused." }

/**
 * A webhook receiver for the core's tests: every request it got (with the test-clock time), and a
 * reaction chosen per request (200 unless told otherwise).
 */
export const makeScriptedReceiver = () => {
  const received: Array<WebhookRequest & { readonly at: number }> = []
  let react: (request: WebhookRequest) => Reaction = () => answer(200)
  return {
    received,
    reactWith: (reaction: (request: WebhookRequest) => Reaction) => {
      react = reaction
    },
    layer: Layer.succeed(WebhookSender, {
      send: (request) =>
        Effect.flatMap(Clock.currentTimeMillis, (at) => {
          received.push({ ...request, at })
          const reaction = react(request)
          return reaction === "hang" ? Effect.never : Effect.succeed(reaction)
        })
    })
  }
}
