import { Schema } from "effect"

/**
 * The longest `latency_ms` a connection may have: a minute, well past every call's deadline, so a
 * late answer can be tried; more only held the service's work for the one who asked for it.
 */
export const MAX_LATENCY_MS = 60_000

/** Fault injection per sandbox connection (its `settings`). */
export const SandboxSettings = Schema.Struct({
  /** Delay before every answer, after the sandbox has acted: a timeout then loses the answer, not the charge. */
  latency_ms: Schema.optionalWith(
    Schema.NonNegativeInt.pipe(
      Schema.lessThanOrEqualTo(MAX_LATENCY_MS, { message: () => `at most ${MAX_LATENCY_MS} (one minute)` })
    ),
    { default: () => 0 }
  ),
  /** Every call fails as if the PSP were unreachable; nothing is processed. */
  outage: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  /** Share of new charges (0..1) that fail with a retryable `processing_error`. */
  failure_rate: Schema.optionalWith(Schema.Number.pipe(Schema.between(0, 1)), { default: () => 0 }),
  /**
   * Refunds answer `pending` and settle `refund_delay_ms` later, which the sandbox reports by webhook,
   * as a PSP whose refunds take time does.
   */
  async_refunds: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  refund_delay_ms: Schema.optionalWith(Schema.NonNegativeInt, { default: () => 30_000 })
}).annotations({ identifier: "SandboxSettings", parseOptions: { onExcessProperty: "error" } })
export type SandboxSettings = typeof SandboxSettings.Type
