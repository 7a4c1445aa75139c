import { Schema } from "effect"
import { timeoutSettingsFields } from "../transport/TimeoutSettings.js"

/**
 * A Checkout.com connection's `settings`: the processing channel its payments go through (NAS
 * requires one on every `/payments`; it is not a secret, so it lives here, not in the credentials),
 * whether customer-present payments ask for 3D Secure, and the timeouts every HTTP connector has.
 */
export const CheckoutComSettings = Schema.Struct({
  processing_channel_id: Schema.String.pipe(
    Schema.pattern(/^pc_\w{26}$/, { message: () => "must be a Checkout.com processing channel id: pc_ and 26 characters" })
  ),
  /** 3D Secure on customer-present payments (Checkout.com then decides frictionless or challenge). */
  three_ds: Schema.optionalWith(Schema.Boolean, { default: () => true }),
  ...timeoutSettingsFields
}).annotations({ identifier: "CheckoutComSettings", parseOptions: { onExcessProperty: "error" } })
export type CheckoutComSettings = typeof CheckoutComSettings.Type

/**
 * Where a live Checkout.com connection may send its calls: the documented API host and the
 * per-merchant hosts `{prefix}.api.checkout.com` (prefix: the first 8 characters of the client id
 * after `cli_`). `*` stands for one label only, so `x.api.sandbox.checkout.com` is not among them.
 */
export const CHECKOUT_COM_LIVE_HOSTS: ReadonlyArray<string> = ["api.checkout.com", "*.api.checkout.com"]

/** Where a connection without `base_url` goes: the sandbox for test, the documented live host for live. */
export const CHECKOUT_COM_SANDBOX_URL = "https://api.sandbox.checkout.com"
export const CHECKOUT_COM_LIVE_URL = "https://api.checkout.com"
