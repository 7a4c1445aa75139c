import { SqlClient } from "@effect/sql"
import { type CausingRequest, CurrentCausingRequest, encodedOnceOfValue, Event, EventsRepository, type StoredEvent } from "@orchestrator/core"
import { DateTime, Effect, FiberRef, Layer, Schema } from "effect"
import { laneCursor } from "../shared/FairClaims.js"
import { equalsWhereGiven, keysetPage } from "../shared/KeysetPage.js"
import { claimLeased, completeLeased } from "../shared/LeasedClaims.js"
import { Column, firstRow, objectFromRow } from "../shared/Rows.js"
import { tenantScope } from "../shared/TenantScope.js"

const encode = Schema.encodeSync(Event)

/** An `events` row: the columns the API shows, as either driver gives them. */
const EventRow = Schema.Struct({
  id: Column.text,
  type: Column.text,
  api_version: Column.text,
  created_at: Column.timestamp,
  livemode: Column.boolean,
  data: Column.json
})

export const toEvent = objectFromRow(EventRow, "event", Event)

/**
 * What an event's row stores besides its tenant and cause. An event about a record encoded once
 * (a payment: its row and the response show the same instance) reuses that record's JSON; the rest of
 * the envelope is text as it stands, but for the time.
 */
export const eventRowValues = (event: Event) => {
  const once = encodedOnceOfValue(event.data.object)
  if (once === undefined) {
    const row = encode(event)
    return { ...row, data: JSON.stringify(row.data) }
  }
  return {
    object: event.object,
    id: event.id,
    livemode: event.livemode,
    type: event.type,
    api_version: event.api_version,
    created_at: DateTime.formatIso(event.created_at),
    data: `{"object":${once.json(event.data.object)}}`
  }
}

/**
 * Rows of `events`, each value cast to its column's type: usable after `values` in an insert, and in
 * a `select … from (values …)` that another statement's CTE guards.
 */
export const eventRows = (
  sql: SqlClient.SqlClient,
  organizationId: string,
  events: ReadonlyArray<Event>,
  cause: CausingRequest | null
) =>
  sql.csv(events.map((event) => {
    const row = eventRowValues(event)
    return sql`(${row.id}, ${organizationId}, ${row.livemode}::boolean, ${row.type}, ${row.api_version},
        ${row.data}::jsonb, ${row.created_at}::timestamptz, ${cause?.requestId ?? null}::text, ${cause?.traceParent ?? null}::text)`
  }))

export const EVENT_COLUMNS = "id, organization_id, livemode, type, api_version, data, created_at, request_id, trace_parent"

/** The request being served (none in a worker), which the events written now remember. */
export const withCausingRequest = <A>(write: (cause: CausingRequest | null) => Effect.Effect<A>): Effect.Effect<A> =>
  Effect.flatMap(FiberRef.get(CurrentCausingRequest), write)

/** Who caused a claimed event, from its `request_id` and `trace_parent` columns. */
const causeOf = (row: { readonly request_id?: unknown; readonly trace_parent?: unknown }): CausingRequest | null =>
  typeof row.request_id === "string"
    ? { requestId: row.request_id, traceParent: typeof row.trace_parent === "string" ? row.trace_parent : null }
    : null

export const EventsRepositorySql = Layer.effect(
  EventsRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const cursor = laneCursor()
    const ofTenant = tenantScope(sql, "e")
    const at = (time: DateTime.Utc) => DateTime.formatIso(time)
    const insertAll = (organizationId: string, events: ReadonlyArray<Event>) =>
      events.length === 0 ? Effect.void : withCausingRequest((cause) =>
        sql`insert into events (${sql.literal(EVENT_COLUMNS)})
          values ${eventRows(sql, organizationId, events, cause)}`.pipe(Effect.asVoid, Effect.orDie)
      )
    return EventsRepository.of({
      insert: (organizationId, event) => insertAll(organizationId, [event]),
      insertAll,
      listRecent: (tenant, limit) =>
        sql`select * from events where organization_id = ${tenant.organizationId} and livemode = ${tenant.livemode}
          order by created_at desc, id desc limit ${limit}`.pipe(Effect.map((rows) => rows.map(toEvent)), Effect.orDie),
      find: (tenant, id) => sql`select * from events e where e.id = ${id} and ${ofTenant(tenant)}`.pipe(firstRow(toEvent)),
      list: (tenant, filter, page) =>
        keysetPage(sql, {
          table: "events",
          alias: "e",
          scope: ofTenant(tenant),
          filters: [
            ...equalsWhereGiven(sql, { "e.type": filter.type }),
            ...(filter.createdGte === undefined ? [] : [sql`e.created_at >= ${at(filter.createdGte)}::timestamptz`]),
            ...(filter.createdLte === undefined ? [] : [sql`e.created_at <= ${at(filter.createdLte)}::timestamptz`])
          ],
          page,
          decode: toEvent
        }),
      purge: (before) =>
        sql`delete from events where created_at < ${at(before)}::timestamptz and dispatched_at is not null
          returning id`.pipe(Effect.map((rows) => rows.length), Effect.orDie),
      claimUndispatched: (lease) =>
        claimLeased<{ readonly id: string; readonly organization_id: string; readonly request_id?: unknown }, StoredEvent>(sql, {
          table: "events",
          due: sql`true`,
          order: sql`created_at, id`,
          returning: sql`events.*`,
          lease,
          item: (row) => ({ organizationId: row.organization_id, event: toEvent(row), cause: causeOf(row) }),
          // Organizations take turns in each batch; no cap, the outbox's work is the database's own.
          fair: { waiting: sql`dispatched_at is null`, share: { perTenant: lease.limit, perLane: lease.limit }, capped: false, cursor }
        }),
      markDispatched: ({ item, token }) => completeLeased(sql, { table: "events", id: item.event.id, token, set: sql`dispatched_at = now()` }),
      markDispatchedAll: (claimed) =>
        claimed.length === 0 ? Effect.succeed(new Set<string>()) : sql<{ id: string }>`update events
            set dispatched_at = now(), lease_until = null, lease_token = null
          where (id, lease_token) in (${sql.csv(claimed.map(({ item, token }) => sql`(${item.event.id}, ${token})`))})
          returning id`.pipe(Effect.map((rows) => new Set(rows.map((row) => row.id))), Effect.orDie)
    })
  })
)
