import { Schema } from "effect"
import { timeoutSettingsFields } from "../transport/TimeoutSettings.js"

/** A Stripe connection's `settings`: its timeouts (30 s to answer, 10 s to connect, by default). */
export const StripeSettings = Schema.Struct({
  ...timeoutSettingsFields
}).annotations({ identifier: "StripeSettings", parseOptions: { onExcessProperty: "error" } })
export type StripeSettings = typeof StripeSettings.Type

/** Where a live Stripe connection may send its calls: Stripe's documented API host and its files host (evidence uploads), nothing else. */
export const STRIPE_LIVE_HOSTS: ReadonlyArray<string> = ["api.stripe.com", "files.stripe.com"]
