import { Context, type Effect } from "effect"

/** One signed POST of an event to an endpoint. */
export interface WebhookRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: Uint8Array
  /**
   * Live-mode endpoints may only reach public addresses, checked on the address actually connected
   * to; test-mode endpoints may also reach loopback and private ones (a merchant developing locally).
   */
  readonly livemode: boolean
}

/** What the receiver did: answered with a status, or could not be reached at all. */
export type WebhookResponse =
  | { readonly _tag: "Answered"; readonly status: number; readonly body: string }
  | { readonly _tag: "Unreachable"; readonly reason: string }

/**
 * The port that sends webhooks over the network. It never follows a redirect and reads at most the
 * first KiB of the answer; the caller bounds how long it may take.
 */
export class WebhookSender extends Context.Tag("core/WebhookSender")<WebhookSender, {
  readonly send: (request: WebhookRequest) => Effect.Effect<WebhookResponse>
}>() {}
