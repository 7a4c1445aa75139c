import { Schema } from "effect"
import { timeoutSettingsFields } from "../transport/TimeoutSettings.js"

/**
 * A Template connection's `settings`: its timeouts (30 s to answer, 10 s to connect, by default),
 * and whatever else the PSP needs per connection that is not a secret. Unknown keys are refused.
 */
export const TemplateSettings = Schema.Struct({
  ...timeoutSettingsFields
}).annotations({ identifier: "TemplateSettings", parseOptions: { onExcessProperty: "error" } })
export type TemplateSettings = typeof TemplateSettings.Type

/**
 * Where a live Template connection may send its calls: the API hosts the PSP documents, nothing
 * else (`*` stands for part of one label). Replace the placeholder with the documented hosts.
 */
export const TEMPLATE_LIVE_HOSTS: ReadonlyArray<string> = ["api.template.example"]

/** Where a test connection without `base_url` sends its calls: the PSP's documented test host. */
export const TEMPLATE_TEST_BASE_URL = "https://api.sandbox.template.example"

/** The keys a connection's `credentials` take; no other key is accepted. */
export const TEMPLATE_CREDENTIAL_KEYS = [{ key: "secret_key", required: true }] as const
