import type { PspAnswer } from "./FakePspServer.js"

/** Stripe's error body: `{ error: { type, message, code?, … } }`. */
export const stripeError = (type: string, message: string, extra: Record<string, unknown> = {}) => ({
  error: { type, message, ...extra }
})

/** A status with Stripe's error body. */
export const stripeErrorAnswer = (status: number, type: string, message: string, extra: Record<string, unknown> = {}): PspAnswer => [
  status,
  stripeError(type, message, extra)
]

/** Stripe's 404 for an object that is not there. */
export const missing = (kind: string, id: string) =>
  stripeErrorAnswer(404, "invalid_request_error", `No such ${kind}: '${id}'`, { code: "resource_missing", param: "id" })

/** What the fake's routes are given: fresh ids, Stripe's clock (seconds), and the fake's own URL. */
export interface FakeStripeContext {
  readonly newId: (prefix: string) => string
  readonly now: () => number
  readonly baseUrl: () => string
}
