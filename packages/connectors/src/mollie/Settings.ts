import { Schema } from "effect"
import { timeoutSettingsFields } from "../transport/TimeoutSettings.js"

/** A Mollie connection's `settings`: its timeouts (30 s to answer, 10 s to connect, by default). */
export const MollieSettings = Schema.Struct({
  ...timeoutSettingsFields
}).annotations({ identifier: "MollieSettings", parseOptions: { onExcessProperty: "error" } })
export type MollieSettings = typeof MollieSettings.Type

/** Mollie's one API host: test and live differ by the key (`test_…`, `live_…`), not by the host. */
export const MOLLIE_BASE_URL = "https://api.mollie.com"

/** Where a live Mollie connection may send its calls: Mollie's documented API host, nothing else. */
export const MOLLIE_LIVE_HOSTS: ReadonlyArray<string> = ["api.mollie.com"]

/** The key's mode by its prefix, as Mollie documents website-profile API keys; `undefined` for anything else. */
export const modeOfKey = (key: string): "test" | "live" | undefined => key.startsWith("test_") ? "test" : key.startsWith("live_") ? "live" : undefined

/**
 * What is wrong with a Mollie API key for a connection of this mode: a key that is neither `test_…`
 * nor `live_…` (organization tokens select the mode per call, which this connector does not do), or
 * a key of the other mode. Checked when the connection is saved, and again before each call.
 */
export const apiKeyProblem = (key: string, livemode: boolean): string | undefined => {
  const mode = modeOfKey(key)
  if (mode === undefined) return "a Mollie API key starts with test_ or live_ (the website profile's API key)"
  const wanted = livemode ? "live" : "test"
  return mode === wanted ? undefined : `a ${mode}_ key on a ${wanted}-mode connection; use the profile's ${wanted}_ key`
}
