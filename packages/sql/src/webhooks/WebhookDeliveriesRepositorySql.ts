import { SqlClient } from "@effect/sql"
import { deliveryShare, type DueDelivery, WebhookDeliveriesRepository, WebhookDelivery, WebhookDeliveryPolicy } from "@orchestrator/core"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { laneCursor } from "../shared/FairClaims.js"
import { equalsWhereGiven, keysetPage } from "../shared/KeysetPage.js"
import { claimLeased } from "../shared/LeasedClaims.js"
import { Column, fromRow } from "../shared/Rows.js"
import { tenantScope } from "../shared/TenantScope.js"
import { recordAttempt, recordAttempts } from "./DeliveryAttemptsSql.js"

const decode = Schema.decodeUnknownSync(WebhookDelivery)

/** A `webhook_deliveries` row: the columns the API shows, as either driver gives them. */
const DeliveryRow = Schema.Struct({
  id: Column.text,
  event_id: Column.text,
  endpoint_id: Column.text,
  type: Column.text,
  status: Column.text,
  attempt_count: Column.integer,
  last_response_status: Schema.NullOr(Column.integer),
  last_error: Column.nullableText,
  next_attempt_at: Schema.NullOr(Column.timestamp),
  delivered_at: Schema.NullOr(Column.timestamp),
  created_at: Column.timestamp,
  livemode: Column.boolean,
  /** The exact JSON body sent, kept as text. */
  payload: Schema.parseJson()
})
const decodeRow = Schema.decodeUnknownSync(DeliveryRow)

/** A `webhook_deliveries` row (and its attempts, when read) as the API shows it. */
export const toDelivery = (row: unknown, attempts: ReadonlyArray<unknown> | null): WebhookDelivery =>
  decode({ object: "webhook_delivery", ...decodeRow(row), attempts })

/** A `webhook_delivery_attempts` row, as either driver gives it. */
const AttemptRow = Schema.Struct({
  id: Column.text,
  attempted_at: Column.timestamp,
  response_status: Schema.NullOr(Column.integer),
  error: Column.nullableText,
  duration_ms: Column.integer,
  response_body: Column.nullableText
})
const decodeAttemptRow = Schema.decodeUnknownSync(AttemptRow)

const toAttempt = (row: unknown) => ({ object: "webhook_delivery_attempt", ...decodeAttemptRow(row) })

/** A delivery as a claim returns it (the columns of `returning`), as either driver gives them. */
const DueRow = Schema.Struct({
  id: Column.text,
  organization_id: Column.text,
  livemode: Column.boolean,
  endpoint_id: Column.text,
  event_id: Column.text,
  object_id: Column.nullableText,
  payload: Column.text,
  attempt_count: Column.integer,
  request_id: Column.nullableText,
  trace_parent: Column.nullableText
})

const toDue = fromRow(DueRow, (row): DueDelivery => ({
  tenant: { organizationId: row.organization_id, livemode: row.livemode },
  deliveryId: row.id,
  endpointId: row.endpoint_id,
  eventId: row.event_id,
  objectId: row.object_id,
  payload: row.payload,
  attemptCount: row.attempt_count,
  cause: row.request_id === null ? null : { requestId: row.request_id, traceParent: row.trace_parent }
}))

const at = (time: DateTime.Utc) => DateTime.formatIso(time)

export const WebhookDeliveriesRepositorySql = Layer.effect(
  WebhookDeliveriesRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ofTenant = tenantScope(sql, "d")
    const cursor = laneCursor()
    const requeue = (time: DateTime.Utc) =>
      sql`status = 'pending', next_attempt_at = ${at(time)}::timestamptz, updated_at = ${at(time)}::timestamptz,
        lease_until = null, lease_token = null`

    return WebhookDeliveriesRepository.of({
      insertAll: (made) =>
        made.length === 0 ? Effect.void : sql`insert into webhook_deliveries (id, organization_id, livemode, event_id,
            endpoint_id, type, status, attempt_count, next_attempt_at, payload, created_at, updated_at, object_id,
            event_created_at, request_id, trace_parent)
          values ${
          sql.csv(made.map(({ cause, delivery, eventCreatedAt, objectId, payload, tenant }) =>
            sql`(${delivery.id}, ${tenant.organizationId}, ${delivery.livemode}, ${delivery.event_id},
            ${delivery.endpoint_id}, ${delivery.type}, ${delivery.status}, ${delivery.attempt_count},
            ${delivery.next_attempt_at === null ? null : at(delivery.next_attempt_at)}::timestamptz, ${payload},
            ${at(delivery.created_at)}::timestamptz, ${at(delivery.created_at)}::timestamptz, ${objectId},
            ${at(eventCreatedAt)}::timestamptz, ${cause?.requestId ?? null}, ${cause?.traceParent ?? null})`
          ))
        }
          on conflict (event_id, endpoint_id) do nothing`.pipe(Effect.asVoid, Effect.orDie),
      find: (tenant, id) =>
        Effect.gen(function*() {
          const rows = yield* sql`select d.* from webhook_deliveries d where d.id = ${id} and ${ofTenant(tenant)}`
          if (rows.length === 0) return Option.none()
          const attempts = yield* sql`select * from webhook_delivery_attempts where delivery_id = ${id}
            order by attempted_at, id`
          return Option.some(toDelivery(rows[0], attempts.map(toAttempt)))
        }).pipe(Effect.orDie),
      list: (tenant, filter, page) =>
        keysetPage(sql, {
          table: "webhook_deliveries",
          alias: "d",
          scope: ofTenant(tenant),
          filters: [
            ...equalsWhereGiven(sql, {
              "d.status": filter.status,
              "d.type": filter.type,
              "d.endpoint_id": filter.endpoint_id
            })
          ],
          page,
          decode: (row) => toDelivery(row, null)
        }),
      // Each endpoint is a lane: its due deliveries walked by their index in the claim's order,
      // whatever the statistics say (a fan-out of thousands goes unseen by them until autovacuum's
      // next analyze, up to a minute, and meanwhile the planner read and sorted every due delivery).
      // An endpoint takes its share while its circuit is closed, none while it is open, and one
      // trial attempt once its cool-down is over.
      claimDue: (lease) => {
        const share = lease.share ?? deliveryShare(WebhookDeliveryPolicy.defaultValue())
        return sql.withTransaction(Effect.zipRight(
          // Both for this transaction only, in one round trip.
          sql`select set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)`,
          claimLeased<{ readonly id: string }, DueDelivery>(sql, {
            table: "webhook_deliveries",
            // First attempts in the object's event order, per endpoint: not before every earlier event of
            // the object is handed to the webhooks (two dispatchers may commit their batches in either
            // order), nor before an earlier delivery of it to this endpoint has had its first attempt.
            // The state read here changes only when that attempt is recorded, so concurrent claims
            // agree, whoever holds the earlier delivery's lease.
            due: sql`next_attempt_at <= ${at(lease.now)}::timestamptz
            and (object_id is null or (
              not exists (select 1 from webhook_deliveries earlier
                where earlier.endpoint_id = webhook_deliveries.endpoint_id
                  and earlier.object_id = webhook_deliveries.object_id
                  and earlier.status = 'pending' and earlier.attempt_count = 0
                  and (earlier.event_created_at, earlier.event_id)
                    < (webhook_deliveries.event_created_at, webhook_deliveries.event_id))
              and not exists (select 1 from events e
                where e.dispatched_at is null
                  and (e.created_at, e.id) < (webhook_deliveries.event_created_at, webhook_deliveries.event_id)
                  and e.organization_id = webhook_deliveries.organization_id
                  and e.livemode = webhook_deliveries.livemode
                  and e.data->'object'->>'id' = webhook_deliveries.object_id)))`,
            order: sql`next_attempt_at, id`,
            returning: sql`id, organization_id, livemode, endpoint_id, event_id, object_id, payload, attempt_count, next_attempt_at,
              request_id, trace_parent`,
            lease,
            item: toDue,
            fair: {
              lanes: ["endpoint_id"],
              waiting: sql`status = 'pending'`,
              share,
              laneCap: sql`coalesce((select case
                  when e.status <> 'active' then ${share.perLane}::int
                  when e.circuit_open_until is null then coalesce(e.concurrency, ${share.perLane}::int)
                  when e.circuit_open_until > ${at(lease.now)}::timestamptz then 0
                  else 1 end
                from webhook_endpoints e where e.id = l.endpoint_id), 0)`,
              cursor
            }
          })
        )).pipe(Effect.orDie)
      },
      recordAttempt: recordAttempt(sql),
      recordAttempts: recordAttempts(sql),
      resend: (tenant, id, time) =>
        sql`update webhook_deliveries d set ${requeue(time)} where d.id = ${id} and ${ofTenant(tenant)}
          returning d.*`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => toDelivery(row, null))),
          Effect.orDie
        ),
      resendMatching: (tenant, filter, time) =>
        sql`update webhook_deliveries d set ${requeue(time)}
          where ${ofTenant(tenant)} and d.status <> 'pending'
            and d.status = ${filter.status ?? "exhausted"}
            ${filter.endpoint_id === undefined ? sql`` : sql`and d.endpoint_id = ${filter.endpoint_id}`}
            ${filter.type === undefined ? sql`` : sql`and d.type = ${filter.type}`}
            ${filter["created[gte]"] === undefined ? sql`` : sql`and d.created_at >= ${at(filter["created[gte]"])}::timestamptz`}
          returning d.id`.pipe(Effect.map((rows) => rows.length), Effect.orDie)
    })
  })
)
