import { SqlClient } from "@effect/sql"
import { APPLY_SHARE, ProviderEventsRepository, type ReceivedEvent, StoredProviderEvent } from "@orchestrator/core"
import { DateTime, Effect, Layer, Schema } from "effect"
import { laneCursor } from "../shared/FairClaims.js"
import { claimLeased, completeLeased, finishLeased } from "../shared/LeasedClaims.js"
import { Column, fromRow, json } from "../shared/Rows.js"

const decode = Schema.decodeUnknownSync(StoredProviderEvent)

/** A `provider_events` row as a claim returns it, as either driver gives it. */
const ReceivedRow = Schema.Struct({
  id: Column.text,
  connection_id: Column.text,
  organization_id: Column.text,
  livemode: Column.boolean,
  event: Column.json,
  received_at: Column.timestamp
})

const toReceived = fromRow(ReceivedRow, (row): ReceivedEvent => ({
  id: row.id,
  connectionId: row.connection_id,
  tenant: { organizationId: row.organization_id, livemode: row.livemode },
  event: decode(row.event),
  receivedAt: DateTime.unsafeMake(row.received_at)
}))

export const ProviderEventsRepositorySql = Layer.effect(
  ProviderEventsRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const cursor = laneCursor()
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
      has: (connectionId, eventId) =>
        sql<{ readonly one: number }>`select 1 as one from provider_events
          where connection_id = ${connectionId} and psp_event_id = ${eventId} and outcome is distinct from 'refused'`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      claimUnapplied: (lease) =>
        claimLeased<{ readonly id: string }, ReceivedEvent>(sql, {
          table: "provider_events",
          due: sql`true`,
          order: sql`received_at, id`,
          returning: sql`provider_events.*`,
          lease,
          item: toReceived,
          fair: { waiting: sql`applied_at is null`, share: APPLY_SHARE, cursor }
        }),
      finishClaim: (id, token) => finishLeased(sql, { table: "provider_events", id, token }),
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
