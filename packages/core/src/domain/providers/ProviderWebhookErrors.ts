import { type FailureAnswer, ServiceFailure } from "../Failure.js"

/**
 * A PSP webhook that is not provably from the PSP of a connection, or that holds what cannot be
 * stored (`field` names where): nothing of it is stored.
 */
export class ProviderWebhookRejected extends ServiceFailure("ProviderWebhookRejected", {
  kind: "invalid",
  codes: ["webhook_unverified"],
  description: "The webhook is not provably from the connection's PSP (signature, timestamp, content); nothing was stored"
})<{
  readonly reason: string
  readonly field?: string | null
}> {
  get answer(): FailureAnswer {
    return { message: `The webhook was not accepted: ${this.reason}.`, param: this.field ?? null }
  }
}

/** The connection's webhooks came faster than its limit: answered 429 with `Retry-After`, nothing called or stored. */
export class ProviderWebhookThrottled extends ServiceFailure("ProviderWebhookThrottled", {
  kind: "rate_limited",
  codes: ["rate_limit_exceeded"],
  description: "Too many PSP webhooks for one connection at once; `Retry-After` says when to try again"
})<{ readonly retryAfterMs: number }> {
  get answer(): FailureAnswer {
    return {
      message: "Too many webhooks for this connection at once; nothing was read. Retry after the time in Retry-After.",
      retryAfterMs: this.retryAfterMs
    }
  }
}
