import { SqlClient } from "@effect/sql"
import { ApiKey, ApiKeysRepository, Organization, OrganizationsRepository } from "@orchestrator/core"
import { Effect, Layer, Option, Schema } from "effect"
import { Column } from "../shared/Rows.js"

const decodeOrganization = Schema.decodeUnknownSync(Organization)
const encodeOrganization = Schema.encodeSync(Organization)
/** An `organizations` row, as either driver gives it. */
const OrganizationRow = Schema.Struct({
  id: Column.text,
  name: Column.text,
  default_provider_test: Column.nullableText,
  default_provider_live: Column.nullableText,
  payments_routing_test: Column.text,
  payments_routing_live: Column.text,
  rate_limit_test: Schema.NullOr(Column.integer),
  rate_limit_live: Schema.NullOr(Column.integer),
  /** Added by migration 0016. */
  display_name_test: Schema.optionalWith(Column.nullableText, { default: () => null }),
  display_name_live: Schema.optionalWith(Column.nullableText, { default: () => null }),
  created_at: Column.timestamp
})
const decodeOrganizationRow = Schema.decodeUnknownSync(OrganizationRow)
const toOrganization = (row: unknown) => decodeOrganization(decodeOrganizationRow(row))

export const OrganizationsRepositorySql = Layer.effect(
  OrganizationsRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const one = (rows: ReadonlyArray<unknown>) => Option.map(Option.fromNullable(rows[0]), toOrganization)
    return OrganizationsRepository.of({
      insert: (organization) => {
        const row = encodeOrganization(organization)
        return sql`insert into organizations (id, name, default_provider_test, default_provider_live,
            payments_routing_test, payments_routing_live, rate_limit_test, rate_limit_live, display_name_test, display_name_live, created_at)
          values (${row.id}, ${row.name}, ${row.default_provider_test}, ${row.default_provider_live},
            ${row.payments_routing_test}, ${row.payments_routing_live}, ${row.rate_limit_test}, ${row.rate_limit_live},
            ${row.display_name_test}, ${row.display_name_live}, ${row.created_at}::timestamptz)`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
      },
      update: (organization) => {
        const row = encodeOrganization(organization)
        return sql`update organizations set name = ${row.name}, default_provider_test = ${row.default_provider_test},
            default_provider_live = ${row.default_provider_live}, payments_routing_test = ${row.payments_routing_test},
            payments_routing_live = ${row.payments_routing_live}, rate_limit_test = ${row.rate_limit_test},
            rate_limit_live = ${row.rate_limit_live}, display_name_test = ${row.display_name_test},
            display_name_live = ${row.display_name_live}
          where id = ${row.id}`.pipe(Effect.asVoid, Effect.orDie)
      },
      find: (id) => sql`select * from organizations where id = ${id}`.pipe(Effect.map(one), Effect.orDie),
      lock: (id) => sql`select * from organizations where id = ${id} for update`.pipe(Effect.map(one), Effect.orDie),
      findByName: (name) => sql`select * from organizations where name = ${name}`.pipe(Effect.map(one), Effect.orDie)
    })
  })
)

const decodeKey = Schema.decodeUnknownSync(ApiKey)
const encodeKey = Schema.encodeSync(ApiKey)
/** An `api_keys` row, as either driver gives it. */
const KeyRow = Schema.Struct({
  id: Column.text,
  organization_id: Column.text,
  livemode: Column.boolean,
  kind: Column.text,
  key_hash: Column.text,
  hint: Column.text,
  created_at: Column.timestamp,
  revoked_at: Schema.NullOr(Column.timestamp)
})
const decodeKeyRow = Schema.decodeUnknownSync(KeyRow)
const toKey = (row: unknown) => decodeKey(decodeKeyRow(row))

export const ApiKeysRepositorySql = Layer.effect(
  ApiKeysRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const one = (rows: ReadonlyArray<unknown>) => Option.map(Option.fromNullable(rows[0]), toKey)
    return ApiKeysRepository.of({
      insert: (key) => {
        const row = encodeKey(key)
        return sql`insert into api_keys (id, organization_id, livemode, kind, key_hash, hint, created_at, revoked_at)
          values (${row.id}, ${row.organization_id}, ${row.livemode}, ${row.kind}, ${row.key_hash}, ${row.hint},
            ${row.created_at}::timestamptz, ${row.revoked_at}::timestamptz)`.pipe(Effect.asVoid, Effect.orDie)
      },
      update: (key) => {
        const row = encodeKey(key)
        return sql`update api_keys set revoked_at = ${row.revoked_at}::timestamptz where id = ${row.id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
      },
      findByHash: (hash) => sql`select * from api_keys where key_hash = ${hash}`.pipe(Effect.map(one), Effect.orDie),
      find: (id) => sql`select * from api_keys where id = ${id}`.pipe(Effect.map(one), Effect.orDie),
      listForOrganization: (organizationId) =>
        sql`select * from api_keys where organization_id = ${organizationId} order by created_at, id`.pipe(
          Effect.map((rows) => rows.map(toKey)),
          Effect.orDie
        )
    })
  })
)
