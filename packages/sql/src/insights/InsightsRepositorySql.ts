import { SqlClient } from "@effect/sql"
import type { Tenant } from "@orchestrator/core/domain/Tenant"
import { FAILED_ATTEMPT_STATUSES, SUCCEEDED_ATTEMPT_STATUSES } from "@orchestrator/core/insights/AttemptTallies"
import { InsightsRepository, TIMELINE_LIMIT } from "@orchestrator/core/insights/InsightsRepository"
import { DateTime, Effect, Layer } from "effect"
import { toEvent } from "../events/EventsRepositorySql.js"
import { int } from "../shared/Rows.js"
import { toDelivery } from "../webhooks/WebhookDeliveriesRepositorySql.js"

const at = (time: DateTime.Utc) => DateTime.formatIso(time)

/**
 * The dashboard's read queries. Counting happens in the database (one row per provider and bucket),
 * so a busy window costs a scan of its attempts, never their transfer.
 */
export const InsightsRepositorySql = Layer.effect(
  InsightsRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ofTenant = (alias: string, tenant: Tenant) =>
      sql`${sql(alias)}.organization_id = ${tenant.organizationId} and ${sql(alias)}.livemode = ${tenant.livemode}`
    return InsightsRepository.of({
      attemptTallies: (tenant, since, bucketMillis) =>
        sql`select a.provider,
            floor(extract(epoch from a.created_at) * 1000 / ${bucketMillis}) * ${bucketMillis} as bucket_start,
            count(*) as attempts,
            count(*) filter (where a.status in ${sql.in(SUCCEEDED_ATTEMPT_STATUSES)}) as succeeded,
            count(*) filter (where a.status in ${sql.in(FAILED_ATTEMPT_STATUSES)}) as failed,
            coalesce(sum(a.latency_ms), 0) as latency_sum,
            count(a.latency_ms) as latency_count
          from payment_attempts a join payments p on p.id = a.payment_id
          where ${ofTenant("p", tenant)} and a.created_at >= ${at(since)}::timestamptz
          group by a.provider, bucket_start`.pipe(
          Effect.map((rows) =>
            rows.map((row: any) => ({
              provider: row.provider,
              bucketStart: Number(row.bucket_start),
              attempts: int(row.attempts),
              succeeded: int(row.succeeded),
              failed: int(row.failed),
              latencySum: Number(row.latency_sum),
              latencyCount: int(row.latency_count)
            }))
          ),
          Effect.orDie
        ),
      deliveryCounts: (tenant, since) =>
        sql`select d.status, count(*) as count from webhook_deliveries d
          where ${ofTenant("d", tenant)} and d.created_at >= ${at(since)}::timestamptz group by d.status`.pipe(
          Effect.map((rows) => {
            const counts = { pending: 0, succeeded: 0, exhausted: 0 }
            for (const row of rows as ReadonlyArray<any>) counts[row.status as keyof typeof counts] = int(row.count)
            return counts
          }),
          Effect.orDie
        ),
      paymentEvents: (tenant, paymentId) =>
        sql`select * from events e
          where ${ofTenant("e", tenant)}
            and (e.data -> 'object' ->> 'id' = ${paymentId} or e.data -> 'object' ->> 'payment_id' = ${paymentId})
          order by e.created_at, e.id limit ${TIMELINE_LIMIT}`.pipe(Effect.map((rows) => rows.map(toEvent)), Effect.orDie),
      deliveriesOf: (tenant, eventIds) =>
        eventIds.length === 0
          ? Effect.succeed([])
          : sql`select d.* from webhook_deliveries d where ${ofTenant("d", tenant)} and d.event_id in ${sql.in(eventIds)}
              order by d.created_at, d.id`.pipe(Effect.map((rows) => rows.map((row) => toDelivery(row, null))), Effect.orDie)
    })
  })
)
