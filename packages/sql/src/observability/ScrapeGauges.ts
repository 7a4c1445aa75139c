import { SqlClient } from "@effect/sql"
import { providerConnections, webhookOldestPendingAge, webhookPendingDeliveries } from "@orchestrator/core"
import { Effect, Metric, MetricLabel, Option } from "effect"
import { readDisputeGauges } from "./DisputeGauges.js"
import { readPoolUse } from "./PoolUse.js"

interface Backlog {
  readonly pending: number
  readonly age: number
}

interface ConnectionCount {
  readonly type: string
  readonly livemode: boolean
  readonly status: string
  readonly count: number
}

/** Every (type, mode, status) this process has reported, so one that empties reads 0 instead of vanishing. */
const reported = new Map<string, ReadonlyArray<MetricLabel.MetricLabel>>()

/**
 * The gauges read from the database when Prometheus scrapes: the webhook backlog (the partial index
 * on pending deliveries keeps it to the rows that wait), the connections by status, whose `error`
 * is an open circuit, and the disputes open and their nearest deadline (`DisputeGauges`). Labels are connection types and modes, never a merchant's names.
 */
export const readScrapeGauges = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [backlog] = yield* sql<Backlog>`
    select count(*)::int as pending,
           coalesce(extract(epoch from (now() - min(created_at))), 0)::float8 as age
    from webhook_deliveries where status = 'pending'`
  yield* Metric.set(webhookPendingDeliveries, backlog?.pending ?? 0)
  yield* Metric.set(webhookOldestPendingAge, Math.max(0, backlog?.age ?? 0))
  const counts = yield* sql<ConnectionCount>`
    select type, livemode, status, count(*)::int as count
    from provider_connections where deleted_at is null group by type, livemode, status`
  const now = new Map<string, number>()
  for (const row of counts) {
    const labels = [MetricLabel.make("provider", row.type), MetricLabel.make("mode", row.livemode ? "live" : "test"), MetricLabel.make("status", row.status)]
    const key = labels.map((label) => label.value).join("\u0000")
    reported.set(key, labels)
    now.set(key, row.count)
  }
  for (const [key, labels] of reported) yield* Metric.set(Metric.taggedWithLabels(providerConnections, labels), now.get(key) ?? 0)
  yield* readDisputeGauges
  yield* readPoolUse
})

/**
 * `readScrapeGauges` on the database of the running context, if it has one: the metrics server lives
 * beside the application, which keeps its `SqlClient` to itself in its types.
 */
export const refreshScrapeGauges = Effect.flatMap(
  Effect.serviceOption(SqlClient.SqlClient),
  Option.match({ onNone: () => Effect.void, onSome: (sql) => Effect.provideService(readScrapeGauges, SqlClient.SqlClient, sql) })
)
