import { SqlClient } from "@effect/sql"
import { Event } from "@orchestrator/core/events/Event"
import { EventsRepository, type StoredEvent } from "@orchestrator/core/events/EventsRepository"
import { Effect, Layer, Schema } from "effect"
import { claimLeased, completeLeased } from "../shared/LeasedClaims.js"
import { iso, json, parsed } from "../shared/Rows.js"

const decode = Schema.decodeUnknownSync(Event)
const encode = Schema.encodeSync(Event)

export const toEvent = (row: any): Event =>
  decode({
    object: "event",
    id: row.id,
    type: row.type,
    api_version: row.api_version,
    created_at: iso(row.created_at),
    livemode: row.livemode,
    data: parsed(row.data)
  })

export const EventsRepositorySql = Layer.effect(
  EventsRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return EventsRepository.of({
      insert: (organizationId, event) => {
        const row = encode(event)
        return sql`insert into events (id, organization_id, livemode, type, api_version, data, created_at)
          values (${row.id}, ${organizationId}, ${row.livemode}, ${row.type}, ${row.api_version},
            ${json(row.data)}::jsonb, ${row.created_at}::timestamptz)`.pipe(Effect.asVoid, Effect.orDie)
      },
      listRecent: (tenant, limit) =>
        sql`select * from events where organization_id = ${tenant.organizationId} and livemode = ${tenant.livemode}
          order by created_at desc, id desc limit ${limit}`.pipe(Effect.map((rows) => rows.map(toEvent)), Effect.orDie),
      claimUndispatched: (lease) =>
        claimLeased<any, StoredEvent>(sql, {
          table: "events",
          due: sql`dispatched_at is null`,
          order: sql`created_at, id`,
          returning: sql`*`,
          lease,
          item: (row) => ({ organizationId: row.organization_id, event: toEvent(row) })
        }),
      markDispatched: ({ item, token }) =>
        completeLeased(sql, { table: "events", id: item.event.id, token, set: sql`dispatched_at = now()` })
    })
  })
)
