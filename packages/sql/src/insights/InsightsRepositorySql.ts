import { SqlClient } from "@effect/sql"
import { FAILED_ATTEMPT_STATUSES, InsightsRepository, SUCCEEDED_ATTEMPT_STATUSES, type Tenant, TIMELINE_LIMIT } from "@orchestrator/core"
import { DateTime, Effect, Layer, Schema } from "effect"
import { toEvent } from "../events/EventsRepositorySql.js"
import { Column } from "../shared/Rows.js"
import { toDelivery } from "../webhooks/WebhookDeliveriesRepositorySql.js"

const at = (time: DateTime.Utc) => DateTime.formatIso(time)

/** One provider's attempts in one time bucket, counted by the database. */
const TallyRow = Schema.Struct({
  provider: Column.text,
  bucket_start: Column.number,
  attempts: Column.integer,
  succeeded: Column.integer,
  failed: Column.integer,
  latency_sum: Column.number,
  latency_count: Column.integer
})
const decodeTallyRow = Schema.decodeUnknownSync(TallyRow)

const CountRow = Schema.Struct({ status: Column.text, count: Column.integer })
const decodeCountRow = Schema.decodeUnknownSync(CountRow)

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
            rows.map((value) => {
              const row = decodeTallyRow(value)
              return {
                provider: row.provider,
                bucketStart: row.bucket_start,
                attempts: row.attempts,
                succeeded: row.succeeded,
                failed: row.failed,
                latencySum: row.latency_sum,
                latencyCount: row.latency_count
              }
            })
          ),
          Effect.orDie
        ),
      deliveryCounts: (tenant, since) =>
        sql`select d.status, count(*) as count from webhook_deliveries d
          where ${ofTenant("d", tenant)} and d.created_at >= ${at(since)}::timestamptz group by d.status`.pipe(
          Effect.map((rows) => {
            const counts = { pending: 0, succeeded: 0, exhausted: 0 }
            for (const row of rows.map((value) => decodeCountRow(value))) counts[row.status as keyof typeof counts] = row.count
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
