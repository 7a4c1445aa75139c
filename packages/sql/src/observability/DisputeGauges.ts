import { SqlClient } from "@effect/sql"
import { disputesNearestDue, disputesOpen } from "@orchestrator/core"
import { Effect, Metric, MetricLabel } from "effect"

interface OpenCount {
  readonly type: string
  readonly livemode: boolean
  readonly count: number
}

interface NearestDue {
  readonly livemode: boolean
  readonly seconds: number
}

/** Every (type, mode) this process has reported, so one that empties reads 0 instead of vanishing. */
const reported = new Map<string, ReadonlyArray<MetricLabel.MetricLabel>>()

const modeOf = (livemode: boolean) => MetricLabel.make("mode", livemode ? "live" : "test")

/**
 * The disputes' gauges, read at each scrape: how many are open, by the connection type their
 * connection has (a dispute names its connection by the merchant's name, which is no label), and how
 * far off the nearest evidence deadline is in each mode (+Inf when no dispute needs a response).
 */
export const readDisputeGauges = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const open = yield* sql<OpenCount>`
    select coalesce((select c.type from provider_connections c
                     where c.organization_id = d.organization_id and c.livemode = d.livemode and c.name = d.provider
                     order by c.deleted_at nulls first limit 1), 'unknown') as type,
           d.livemode, count(*)::int as count
    from disputes d where d.status in ('needs_response', 'under_review') group by 1, 2`
  const now = new Map<string, number>()
  for (const row of open) {
    const labels = [MetricLabel.make("provider", row.type), modeOf(row.livemode)]
    const key = labels.map((label) => label.value).join("\u0000")
    reported.set(key, labels)
    now.set(key, row.count)
  }
  for (const [key, labels] of reported) yield* Metric.set(Metric.taggedWithLabels(disputesOpen, labels), now.get(key) ?? 0)
  const due = yield* sql<NearestDue>`
    select livemode, extract(epoch from (min(evidence_due_by) - now()))::float8 as seconds
    from disputes where status = 'needs_response' and evidence_due_by is not null group by livemode`
  for (const livemode of [false, true]) {
    const nearest = due.find((row) => row.livemode === livemode)
    yield* Metric.set(Metric.taggedWithLabels(disputesNearestDue, [modeOf(livemode)]), nearest === undefined ? Number.POSITIVE_INFINITY : nearest.seconds)
  }
})
