import { SqlClient } from "@effect/sql"
import { ProviderConnection } from "@orchestrator/core/providers/ProviderConnection"
import { ProviderConnectionsRepository } from "@orchestrator/core/providers/ProviderConnectionsRepository"
import { Effect, Layer, Option, Schema } from "effect"
import { iso, json, parsed } from "../shared/Rows.js"

const decode = Schema.decodeUnknownSync(ProviderConnection)
const encode = Schema.encodeSync(ProviderConnection)
const toConnection = (row: any) =>
  decode({
    object: "provider_connection",
    id: row.id,
    name: row.name,
    type: row.type,
    status: row.status,
    last_error: row.last_error,
    supported_currencies: parsed(row.supported_currencies),
    supported_methods: parsed(row.supported_methods),
    settings: parsed(row.settings),
    livemode: row.livemode,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at)
  })

export const ProviderConnectionsRepositorySql = Layer.effect(
  ProviderConnectionsRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return ProviderConnectionsRepository.of({
      insert: (organizationId, connection) => {
        const row = encode(connection)
        return sql`insert into provider_connections (id, organization_id, livemode, name, type, status, last_error,
            supported_currencies, supported_methods, settings, created_at, updated_at)
          values (${row.id}, ${organizationId}, ${row.livemode}, ${row.name}, ${row.type}, ${row.status},
            ${row.last_error}, ${json(row.supported_currencies)}::jsonb, ${json(row.supported_methods)}::jsonb,
            ${json(row.settings)}::jsonb, ${row.created_at}::timestamptz, ${row.updated_at}::timestamptz)`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
      },
      update: (organizationId, connection) => {
        const row = encode(connection)
        return sql`update provider_connections set status = ${row.status}, last_error = ${row.last_error},
            supported_currencies = ${json(row.supported_currencies)}::jsonb,
            supported_methods = ${json(row.supported_methods)}::jsonb, settings = ${json(row.settings)}::jsonb,
            updated_at = ${row.updated_at}::timestamptz
          where id = ${row.id} and organization_id = ${organizationId}`.pipe(Effect.asVoid, Effect.orDie)
      },
      findByName: (tenant, name) =>
        sql`select * from provider_connections where organization_id = ${tenant.organizationId}
          and livemode = ${tenant.livemode} and name = ${name}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toConnection)),
          Effect.orDie
        ),
      list: (tenant) =>
        sql`select * from provider_connections where organization_id = ${tenant.organizationId}
          and livemode = ${tenant.livemode} order by created_at, id`.pipe(
          Effect.map((rows) => rows.map(toConnection)),
          Effect.orDie
        ),
      findSealedSecret: (connectionId, kind) =>
        sql<{ sealed: string | null }>`select ${sql(kind === "credentials" ? "credentials_encrypted" : "webhook_secret_encrypted")}
          as sealed from provider_connections where id = ${connectionId}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]?.sealed)),
          Effect.orDie
        ),
      saveSealedSecret: (connectionId, kind, sealed) =>
        sql`update provider_connections
          set ${sql(kind === "credentials" ? "credentials_encrypted" : "webhook_secret_encrypted")} = ${sealed}
          where id = ${connectionId}`.pipe(Effect.asVoid, Effect.orDie)
    })
  })
)
