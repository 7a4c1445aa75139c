import { Schema } from "effect"
import { timeoutSettingsFields } from "../transport/TimeoutSettings.js"

/** PayPal's sandbox API, where a test connection goes unless its `base_url` says otherwise. */
export const PAYPAL_SANDBOX_BASE_URL = "https://api-m.sandbox.paypal.com"
/** PayPal's live API, where a live connection goes. */
export const PAYPAL_LIVE_BASE_URL = "https://api-m.paypal.com"

/** Where a live PayPal connection may send its calls: PayPal's documented live API host, nothing else. */
export const PAYPAL_LIVE_HOSTS: ReadonlyArray<string> = ["api-m.paypal.com"]

/**
 * A PayPal connection's `settings`: its timeouts, and the id of the webhook subscribed at PayPal for
 * it (`webhook_id`, shown in PayPal's developer dashboard): PayPal's verify-webhook-signature API
 * needs it, and without it every webhook is refused.
 */
export const PayPalSettings = Schema.Struct({
  ...timeoutSettingsFields,
  webhook_id: Schema.optional(Schema.String.pipe(Schema.pattern(/^[a-zA-Z0-9]{1,50}$/)))
}).annotations({ identifier: "PayPalSettings", parseOptions: { onExcessProperty: "error" } })
export type PayPalSettings = typeof PayPalSettings.Type
