import { Schema } from "effect"
import { timeoutSettingsFields } from "../transport/TimeoutSettings.js"

/** An Adyen connection's `settings`: its timeouts (30 s to answer, 10 s to connect, by default). */
export const AdyenSettings = Schema.Struct({
  ...timeoutSettingsFields
}).annotations({ identifier: "AdyenSettings", parseOptions: { onExcessProperty: "error" } })
export type AdyenSettings = typeof AdyenSettings.Type

/**
 * Where a live Adyen connection may send its calls: Adyen's own domains, and the live Checkout
 * endpoints under the merchant's prefix (`{prefix}-checkout-live.adyenpayments.com`).
 */
export const ADYEN_LIVE_HOSTS: ReadonlyArray<string> = ["*.adyen.com", "*-checkout-live.adyenpayments.com"]
