import { DateTime } from "effect"
import { lineChart, partsBar } from "../Charts.js"
import { healthCard } from "../ConnectionHealth.js"
import { type PageContext, sameMode } from "../Context.js"
import { h } from "../Dom.js"
import { percent } from "../Format.js"

const HOURS = 24

const hourLabel = (start: DateTime.Utc) => DateTime.toDate(start).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })

/** The last day at a glance: each connection's health, volume, success rate and latency per provider, webhooks. */
export const overviewPage = async (context: PageContext) => {
  const [insights, connections] = await Promise.all([
    context.api((client) => client.insights.insights({ urlParams: { hours: HOURS } })),
    context.api((client) => client.providers.list({ urlParams: { limit: 100 } }))
  ])
  sameMode(context.mode, [insights, ...connections.data])
  const providers = insights.providers
  const labels = (providers[0]?.buckets ?? []).map((bucket) => hourLabel(bucket.start))
  const summary = (pick: (stats: (typeof providers)[number]) => string) =>
    providers.length === 0 ? "no payment attempt in this window" : providers.map((stats) => `${stats.provider} ${pick(stats)}`).join("; ")
  return h(
    "div",
    {},
    h("h1", {}, "Overview"),
    h("p", { class: "muted" }, `The last ${HOURS} hours, by hour.`),
    h("h2", {}, "Connections"),
    h(
      "div",
      { class: "cards", id: "health-cards" },
      connections.data.map((connection) => healthCard(connection, providers.find((stats) => stats.provider === connection.name), HOURS))
    ),
    h("h2", {}, "Payments per provider"),
    h(
      "div",
      { class: "cards charts" },
      lineChart({
        id: "chart-volume",
        title: "Payment attempts per hour",
        labels,
        series: providers.map((stats) => ({ name: stats.provider, values: stats.buckets.map((bucket) => bucket.attempts) })),
        format: (value) => String(Math.round(value)),
        summary: summary((stats) => `${stats.attempts} attempts`)
      }),
      lineChart({
        id: "chart-success",
        title: "Success rate",
        labels,
        max: 1,
        series: providers.map((stats) => ({ name: stats.provider, values: stats.buckets.map((bucket) => bucket.success_rate) })),
        format: (value) => `${Math.round(value * 100)}%`,
        summary: summary((stats) => percent(stats.success_rate))
      }),
      lineChart({
        id: "chart-latency",
        title: "Mean PSP latency",
        labels,
        series: providers.map((stats) => ({ name: stats.provider, values: stats.buckets.map((bucket) => bucket.latency_ms_avg) })),
        format: (value) => `${Math.round(value)} ms`,
        summary: summary((stats) => (stats.latency_ms_avg === null ? "no latency" : `${stats.latency_ms_avg} ms`))
      })
    ),
    h("h2", {}, "Webhook deliveries"),
    partsBar({
      id: "chart-deliveries",
      title: `Deliveries created in the last ${HOURS} hours, by status`,
      parts: [
        { label: "succeeded", value: insights.deliveries.succeeded, tone: "ok" },
        { label: "pending", value: insights.deliveries.pending, tone: "warn" },
        { label: "exhausted", value: insights.deliveries.exhausted, tone: "bad" }
      ]
    })
  )
}
