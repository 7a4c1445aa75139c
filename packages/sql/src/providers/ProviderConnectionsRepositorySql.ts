import { SqlClient } from "@effect/sql"
import { ProviderConnection, ProviderConnectionsRepository } from "@orchestrator/core"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { keysetPage } from "../shared/KeysetPage.js"
import { Column, json, objectFromRow, stampColumns } from "../shared/Rows.js"
import { tenantScope } from "../shared/TenantScope.js"

const encode = Schema.encodeSync(ProviderConnection)
/** A `provider_connections` row: the columns the API shows, as either driver gives them. */
const ConnectionRow = Schema.Struct({
  id: Column.text,
  name: Column.text,
  /** Added by migration 0012; a row without it reads as null, as it always has. */
  display_name: Schema.optionalWith(Column.nullableText, { default: () => null }),
  type: Column.text,
  status: Column.text,
  last_error: Column.nullableText,
  /** Added by migration 0017. */
  last_error_at: Schema.optionalWith(Schema.NullOr(Column.timestamp), { default: () => null }),
  supported_currencies: Column.json,
  supported_methods: Column.json,
  settings: Column.json,
  base_url: Column.nullableText,
  consecutive_failures: Column.integer,
  circuit_retry_at: Schema.NullOr(Column.timestamp),
  ...stampColumns
})
const toConnection = objectFromRow(ConnectionRow, "provider_connection", ProviderConnection)

/** Whose connection a row is, for the reads that are not already scoped to a tenant. */
const OwnerRow = Schema.Struct({ organization_id: Column.text, livemode: Column.boolean })
const decodeOwner = Schema.decodeUnknownSync(OwnerRow)

const at = (time: DateTime.Utc) => DateTime.formatIso(time)

/** The circuit breaker's writes (ConnectionHealth): each one statement, so concurrent calls count right. */
const circuitWrites = (sql: SqlClient.SqlClient): Pick<
  ProviderConnectionsRepository["Type"],
  "recordFailure" | "recordSuccess" | "claimTrial"
> => ({
  recordFailure: (connectionId, { now, reason, retryAt, threshold }) =>
    sql`with before as (select status from provider_connections where id = ${connectionId} for update)
      update provider_connections c set
        consecutive_failures = c.consecutive_failures + 1,
        last_error = ${reason},
        last_error_at = ${at(now)}::timestamptz,
        status = case
          when c.status = 'active' and c.consecutive_failures + 1 >= ${threshold} then 'error'
          else c.status end,
        circuit_retry_at = case
          when (c.status = 'active' and c.consecutive_failures + 1 >= ${threshold}) or c.status = 'error'
            then ${at(retryAt)}::timestamptz
          else c.circuit_retry_at end,
        trial_until = null,
        updated_at = ${at(now)}::timestamptz
      from before where c.id = ${connectionId}
      returning c.*, before.status as previous_status`.pipe(
      Effect.map((rows) => ({
        connection: toConnection(rows[0]),
        opened: rows[0]!.previous_status === "active" && rows[0]!.status === "error"
      })),
      Effect.orDie
    ),
  recordSuccess: (connectionId, now) =>
    sql`update provider_connections set consecutive_failures = 0,
        status = case when status = 'error' then 'active' else status end,
        last_error = null, last_error_at = null,
        circuit_retry_at = null, trial_until = null, updated_at = ${at(now)}::timestamptz
      where id = ${connectionId} and (consecutive_failures > 0 or status = 'error')`.pipe(Effect.asVoid, Effect.orDie),
  claimTrial: (connectionId, now, until) =>
    sql`update provider_connections set trial_until = ${at(until)}::timestamptz
      where id = ${connectionId} and status = 'error' and circuit_retry_at <= ${at(now)}::timestamptz
        and (trial_until is null or trial_until < ${at(now)}::timestamptz)
      returning id`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)
})

export const ProviderConnectionsRepositorySql = Layer.effect(
  ProviderConnectionsRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ofTenant = tenantScope(sql, "c")
    const one = (rows: ReadonlyArray<unknown>) => Option.map(Option.fromNullable(rows[0]), toConnection)
    const sealedColumn = (kind: "credentials" | "webhook_secret") => sql(kind === "credentials" ? "credentials_encrypted" : "webhook_secret_encrypted")
    return ProviderConnectionsRepository.of({
      insert: (organizationId, connection) => {
        const row = encode(connection)
        return sql`insert into provider_connections (id, organization_id, livemode, name, display_name, type, status, last_error,
            supported_currencies, supported_methods, settings, base_url, created_at, updated_at)
          values (${row.id}, ${organizationId}, ${row.livemode}, ${row.name}, ${row.display_name ?? null}, ${row.type}, ${row.status},
            ${row.last_error}, ${json(row.supported_currencies)}::jsonb, ${json(row.supported_methods)}::jsonb,
            ${json(row.settings)}::jsonb, ${row.base_url}, ${row.created_at}::timestamptz,
            ${row.updated_at}::timestamptz)`.pipe(Effect.asVoid, Effect.orDie)
      },
      update: (organizationId, connection) => {
        const row = encode(connection)
        // The circuit belongs to the health operations: a connection in error stays in error.
        return sql`update provider_connections set
            status = case when ${row.status} = 'active' and status = 'error' then 'error' else ${row.status} end,
            supported_currencies = ${json(row.supported_currencies)}::jsonb,
            supported_methods = ${json(row.supported_methods)}::jsonb, settings = ${json(row.settings)}::jsonb,
            base_url = ${row.base_url}, display_name = ${row.display_name ?? null}, updated_at = ${row.updated_at}::timestamptz
          where id = ${row.id} and organization_id = ${organizationId}`.pipe(Effect.asVoid, Effect.orDie)
      },
      find: (tenant, id) =>
        sql`select * from provider_connections c where c.id = ${id} and ${ofTenant(tenant)} and c.deleted_at is null`.pipe(
          Effect.map(one),
          Effect.orDie
        ),
      lock: (tenant, id) =>
        sql`select * from provider_connections c where c.id = ${id} and ${ofTenant(tenant)} and c.deleted_at is null
          for update`.pipe(Effect.map(one), Effect.orDie),
      findByName: (tenant, name) =>
        sql`select * from provider_connections c where c.name = ${name} and ${ofTenant(tenant)}
          and c.deleted_at is null`.pipe(Effect.map(one), Effect.orDie),
      findByNameEver: (tenant, name) =>
        sql`select * from provider_connections c where c.name = ${name} and ${ofTenant(tenant)}`.pipe(
          Effect.map(one),
          Effect.orDie
        ),
      findOwned: (id) =>
        sql`select * from provider_connections where id = ${id} and deleted_at is null`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row) => {
              const owner = decodeOwner(row)
              return {
                tenant: { organizationId: owner.organization_id, livemode: owner.livemode },
                connection: toConnection(row)
              }
            })
          ),
          Effect.orDie
        ),
      list: (tenant) =>
        sql`select * from provider_connections c where ${ofTenant(tenant)} and c.deleted_at is null
          order by c.created_at, c.id`.pipe(Effect.map((rows) => rows.map(toConnection)), Effect.orDie),
      page: (tenant, page) =>
        keysetPage(sql, {
          table: "provider_connections",
          alias: "c",
          scope: sql`${ofTenant(tenant)} and c.deleted_at is null`,
          page,
          decode: toConnection
        }),
      markDeleted: (tenant, id, time) =>
        sql`update provider_connections c set deleted_at = ${at(time)}::timestamptz, status = 'disabled',
          updated_at = ${at(time)}::timestamptz where c.id = ${id} and ${ofTenant(tenant)}`.pipe(Effect.asVoid, Effect.orDie),
      findSealedSecret: (connectionId, kind) =>
        sql<{ sealed: string | null }>`select ${sealedColumn(kind)} as sealed from provider_connections
          where id = ${connectionId}`.pipe(Effect.map((rows) => Option.fromNullable(rows[0]?.sealed)), Effect.orDie),
      saveSealedSecret: (connectionId, kind, sealed) =>
        sql`update provider_connections set ${sealedColumn(kind)} = ${sealed} where id = ${connectionId}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      ...circuitWrites(sql)
    })
  })
)
