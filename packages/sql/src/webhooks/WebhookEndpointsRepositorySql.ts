import { SqlClient } from "@effect/sql"
import { WebhookEndpoint, WebhookEndpointsRepository } from "@orchestrator/core"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { keysetPage } from "../shared/KeysetPage.js"
import { Column, firstRow, iso, json, objectFromRow, stampColumns } from "../shared/Rows.js"
import { tenantScope } from "../shared/TenantScope.js"

const encode = Schema.encodeSync(WebhookEndpoint)

/** A `webhook_endpoints` row: the columns the API shows, as either driver gives them. */
const EndpointRow = Schema.Struct({
  id: Column.text,
  url: Column.text,
  description: Column.nullableText,
  enabled_events: Column.json,
  status: Column.text,
  failing_since: Schema.NullOr(Column.timestamp),
  ...stampColumns
})

const toEndpoint = objectFromRow(EndpointRow, "webhook_endpoint", WebhookEndpoint)

export const WebhookEndpointsRepositorySql = Layer.effect(
  WebhookEndpointsRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ofTenant = tenantScope(sql, "w")
    const at = (time: DateTime.Utc | null) => (time === null ? null : DateTime.formatIso(time))
    return WebhookEndpointsRepository.of({
      insert: (tenant, endpoint, secrets) => {
        const row = encode(endpoint)
        return sql`insert into webhook_endpoints (id, organization_id, livemode, url, description, enabled_events,
            status, secret_sealed, previous_secret_sealed, previous_secret_expires_at, created_at, updated_at)
          values (${row.id}, ${tenant.organizationId}, ${row.livemode}, ${row.url}, ${row.description},
            ${json(row.enabled_events)}::jsonb, ${row.status}, ${secrets.current}, ${secrets.previous},
            ${at(secrets.previousExpiresAt)}::timestamptz, ${row.created_at}::timestamptz,
            ${row.updated_at}::timestamptz)`.pipe(Effect.asVoid, Effect.orDie)
      },
      update: (tenant, endpoint) => {
        const row = encode(endpoint)
        return sql`update webhook_endpoints set url = ${row.url}, description = ${row.description},
            enabled_events = ${json(row.enabled_events)}::jsonb, status = ${row.status},
            updated_at = ${row.updated_at}::timestamptz
          where id = ${row.id} and organization_id = ${tenant.organizationId}`.pipe(Effect.asVoid, Effect.orDie)
      },
      find: (tenant, id) => sql`select w.* from webhook_endpoints w where w.id = ${id} and ${ofTenant(tenant)}`.pipe(firstRow(toEndpoint)),
      list: (tenant, page) =>
        keysetPage(sql, {
          table: "webhook_endpoints",
          alias: "w",
          scope: ofTenant(tenant),
          page,
          decode: toEndpoint
        }),
      delete: (tenant, id) =>
        sql`delete from webhook_endpoints w where w.id = ${id} and ${ofTenant(tenant)} returning id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      active: (tenant) =>
        sql`select w.* from webhook_endpoints w where ${ofTenant(tenant)} and w.status = 'active'
          order by w.created_at, w.id`.pipe(Effect.map((rows) => rows.map(toEndpoint)), Effect.orDie),
      findSecrets: (endpointId) =>
        sql<{ secret_sealed: string; previous_secret_sealed: string | null; previous_secret_expires_at: unknown }>`
          select secret_sealed, previous_secret_sealed, previous_secret_expires_at
          from webhook_endpoints where id = ${endpointId}`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row) => ({
              current: row.secret_sealed,
              previous: row.previous_secret_sealed,
              previousExpiresAt: row.previous_secret_expires_at === null
                ? null
                : DateTime.unsafeMake(iso(row.previous_secret_expires_at))
            }))
          ),
          Effect.orDie
        ),
      findHealth: (endpointId, options) =>
        sql<{ failure_count: unknown; failing_since: unknown; circuit_open_until: unknown; concurrency: unknown }>`
          select failure_count, failing_since, circuit_open_until, concurrency from webhook_endpoints where id = ${endpointId}
          ${options?.forUpdate === true ? sql`for update` : sql``}`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row) => ({
              failureCount: Number(row.failure_count),
              failingSince: row.failing_since === null ? null : DateTime.unsafeMake(iso(row.failing_since)),
              circuitOpenUntil: row.circuit_open_until === null ? null : DateTime.unsafeMake(iso(row.circuit_open_until)),
              concurrency: row.concurrency === null ? null : Number(row.concurrency)
            }))
          ),
          Effect.orDie
        ),
      saveHealth: (endpointId, health) =>
        sql`update webhook_endpoints set failure_count = ${health.failureCount},
            failing_since = ${at(health.failingSince)}::timestamptz,
            circuit_open_until = ${at(health.circuitOpenUntil)}::timestamptz, concurrency = ${health.concurrency}
          where id = ${endpointId}`.pipe(Effect.asVoid, Effect.orDie),
      saveSecrets: (endpointId, secrets) =>
        sql`update webhook_endpoints set secret_sealed = ${secrets.current},
            previous_secret_sealed = ${secrets.previous},
            previous_secret_expires_at = ${at(secrets.previousExpiresAt)}::timestamptz
          where id = ${endpointId}`.pipe(Effect.asVoid, Effect.orDie)
    })
  })
)
