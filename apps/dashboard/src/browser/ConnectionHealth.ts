import type { ProviderConnectionView, ProviderStats } from "@orchestrator/core"
import { DateTime } from "effect"
import { h } from "./Dom.js"
import { millis, percent, when } from "./Format.js"
import { badge } from "./Table.js"

/** The circuit breaker in words: closed (calls go through), open (none do), or open with a trial call allowed. */
export const circuitOf = (connection: ProviderConnectionView, now: number) => {
  if (connection.status === "disabled") return "disabled"
  if (connection.status !== "error") return "closed"
  return connection.circuit_retry_at !== null && DateTime.toEpochMillis(connection.circuit_retry_at) <= now ? "half_open" : "open"
}

/** A connection's health at a glance: status, circuit, last error, and how it did recently. */
export const healthCard = (connection: ProviderConnectionView, stats: ProviderStats | undefined, hours: number) =>
  h(
    "div",
    { class: "card health", id: `health-${connection.name}`, "data-status": connection.status },
    h("h3", {}, connection.name, " ", badge(connection.status)),
    h(
      "dl",
      { class: "facts compact" },
      h("dt", {}, "Circuit"),
      h("dd", {}, badge(circuitOf(connection, Date.now()))),
      h("dt", {}, "Failures in a row"),
      h("dd", {}, String(connection.consecutive_failures)),
      h("dt", {}, `Success rate (${hours} h)`),
      h("dd", { "data-metric": "success-rate" }, percent(stats?.success_rate)),
      h("dt", {}, `Mean latency (${hours} h)`),
      h("dd", { "data-metric": "latency" }, millis(stats?.latency_ms_avg)),
      h("dt", {}, "Last error"),
      h("dd", { "data-metric": "last-error" }, lastErrorOf(connection))
    )
  )

/**
 * The connection's current trouble: the latest failed call's reason and when it failed, or "none"
 * once a call has got through since (the service clears it then, the circuit closing).
 */
export const lastErrorOf = (connection: ProviderConnectionView) =>
  connection.last_error === null
    ? "none"
    : connection.last_error_at === null
    ? connection.last_error
    : `${connection.last_error} (${when(connection.last_error_at)})`
