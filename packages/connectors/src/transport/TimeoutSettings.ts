import { Schema } from "effect"

/**
 * The timeouts every HTTP connector takes in its connection's `settings`. Connecting is bounded on
 * its own because a connect failure proves nothing was sent (the payment may move on at once); the
 * read timeout bounds the whole answer, and running out of it leaves the payment `processing` for
 * reconciliation.
 */
export const timeoutSettingsFields = {
  connect_timeout_ms: Schema.optionalWith(Schema.Int.pipe(Schema.between(100, 60_000)), { default: () => 10_000 }),
  timeout_ms: Schema.optionalWith(Schema.Int.pipe(Schema.between(1_000, 120_000)), { default: () => 30_000 })
}
