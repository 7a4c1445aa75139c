import { SqlClient } from "@effect/sql"
import { StoredProviderEvent } from "@orchestrator/core/providers/ProviderEvent"
import { type ReceivedEvent, ProviderEventsRepository } from "@orchestrator/core/providers/ProviderEventsRepository"
import { DateTime, Effect, Layer, Schema } from "effect"
import { claimLeased, completeLeased } from "../shared/LeasedClaims.js"
import { iso, json, parsed } from "../shared/Rows.js"

const decode = Schema.decodeUnknownSync(StoredProviderEvent)

export const ProviderEventsRepositorySql = Layer.effect(
  ProviderEventsRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return ProviderEventsRepository.of({
      // A refused event with the same PSP id is no duplicate: the new one takes its row, to be applied.
      insert: (received) =>
        sql`insert into provider_events (id, connection_id, organization_id, livemode, psp_event_id, event, received_at)
          values (${received.id}, ${received.connectionId}, ${received.tenant.organizationId}, ${received.tenant.livemode},
            ${received.event.eventId}, ${json(received.event)}::jsonb, ${DateTime.formatIso(received.receivedAt)}::timestamptz)
          on conflict (connection_id, psp_event_id) do update set event = excluded.event,
            received_at = excluded.received_at, applied_at = null, outcome = null, lease_until = null, lease_token = null
          where provider_events.outcome = 'refused'
          returning id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      claimUnapplied: (lease) =>
        claimLeased<any, ReceivedEvent>(sql, {
          table: "provider_events",
          due: sql`applied_at is null`,
          order: sql`received_at, id`,
          returning: sql`*`,
          lease,
          item: (row) => ({
            id: row.id,
            connectionId: row.connection_id,
            tenant: { organizationId: row.organization_id, livemode: row.livemode },
            event: decode(parsed(row.event)),
            receivedAt: DateTime.unsafeMake(iso(row.received_at))
          })
        }),
      markApplied: ({ item, token }, outcome, at) =>
        completeLeased(sql, {
          table: "provider_events",
          id: item.id,
          token,
          set: sql`applied_at = ${DateTime.formatIso(at)}::timestamptz, outcome = ${outcome}`
        })
    })
  })
)
