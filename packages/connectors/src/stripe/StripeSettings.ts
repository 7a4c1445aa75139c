import { Schema } from "effect"
import { timeoutSettingsFields } from "../transport/TimeoutSettings.js"

/** A Stripe connection's `settings`: its timeouts (30 s to answer, 10 s to connect, by default). */
export const StripeSettings = Schema.Struct({
  ...timeoutSettingsFields
}).annotations({ identifier: "StripeSettings", parseOptions: { onExcessProperty: "error" } })
export type StripeSettings = typeof StripeSettings.Type
