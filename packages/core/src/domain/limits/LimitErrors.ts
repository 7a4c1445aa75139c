import { type FailureAnswer, ServiceFailure } from "../Failure.js"

/** The address has used up its failed authentications: answered 429 with `Retry-After`. */
export class TooManyFailedAuthentications extends ServiceFailure("TooManyFailedAuthentications", {
  kind: "rate_limited",
  codes: ["too_many_failed_authentications"],
  description: "Too many failed authentications from this client address; `Retry-After` says when to try again"
})<{
  readonly retryAfterMs: number
}> {
  get answer(): FailureAnswer {
    return { message: "Too many failed authentications from this address. Retry after the time in Retry-After.", retryAfterMs: this.retryAfterMs }
  }
}

/** The key sent more than its organization allows: answered 429 with `Retry-After`. */
export class RateLimited extends ServiceFailure("RateLimited", {
  kind: "rate_limited",
  codes: ["rate_limit_exceeded"],
  description: "Too many requests with this API key; `Retry-After` says when to try again"
})<{
  readonly perSecond: number
  readonly retryAfterMs: number
}> {
  get answer(): FailureAnswer {
    return {
      message: `Too many requests: this key may send ${this.perSecond} a second. Retry after the time in Retry-After.`,
      retryAfterMs: this.retryAfterMs
    }
  }
}
