/** Stripe's error body: `{ error: { type, message, code?, … } }`. */
export const stripeError = (type: string, message: string, extra: Record<string, unknown> = {}) => ({
  error: { type, message, ...extra }
})

/** What the fake's routes are given: fresh ids, Stripe's clock (seconds), and the fake's own URL. */
export interface FakeStripeContext {
  readonly newId: (prefix: string) => string
  readonly now: () => number
  readonly baseUrl: () => string
}
