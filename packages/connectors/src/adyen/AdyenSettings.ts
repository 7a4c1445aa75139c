import { Schema } from "effect"
import { timeoutSettingsFields } from "../transport/TimeoutSettings.js"

/** Adyen's Disputes API (v30) for a test connection, and for a live one: a host of its own, beside Checkout's. */
export const ADYEN_DISPUTES_TEST_BASE_URL = "https://ca-test.adyen.com/ca/services/DisputeService/v30"
export const ADYEN_DISPUTES_LIVE_BASE_URL = "https://ca-live.adyen.com/ca/services/DisputeService/v30"

/**
 * An Adyen connection's `settings`: its timeouts (30 s to answer, 10 s to connect, by default), and
 * `disputes_base_url`, where its Disputes API calls go when not Adyen's own (ca-test for a test
 * connection, ca-live for a live one); a live connection's calls reach only Adyen's hosts.
 */
export const AdyenSettings = Schema.Struct({
  ...timeoutSettingsFields,
  disputes_base_url: Schema.optional(Schema.String.pipe(Schema.pattern(/^https?:\/\/[^\s]+$/)))
}).annotations({ identifier: "AdyenSettings", parseOptions: { onExcessProperty: "error" } })
export type AdyenSettings = typeof AdyenSettings.Type

/**
 * Where a live Adyen connection may send its calls: Adyen's own domains, and the live Checkout
 * endpoints under the merchant's prefix (`{prefix}-checkout-live.adyenpayments.com`).
 */
export const ADYEN_LIVE_HOSTS: ReadonlyArray<string> = ["*.adyen.com", "*-checkout-live.adyenpayments.com"]
