import { SqlClient } from "@effect/sql"
import { Event } from "@orchestrator/core/events/Event"
import { EventsRepository } from "@orchestrator/core/events/EventsRepository"
import { Effect, Layer, Schema } from "effect"
import { iso, json, parsed } from "./Rows.js"

const decode = Schema.decodeUnknownSync(Event)
const encode = Schema.encodeSync(Event)

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
          order by created_at desc, id desc limit ${limit}`.pipe(
          Effect.map((rows) =>
            rows.map((row: any) =>
              decode({
                object: "event",
                id: row.id,
                type: row.type,
                api_version: row.api_version,
                created_at: iso(row.created_at),
                livemode: row.livemode,
                data: parsed(row.data)
              })
            )
          ),
          Effect.orDie
        )
    })
  })
)
