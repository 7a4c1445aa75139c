import { SqlClient } from "@effect/sql"
import { CheckoutSessionRecord, type CheckoutSessionRef, CheckoutSessionsRepository, EXPIRY_SHARE, type Tenant } from "@orchestrator/core"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { laneCursor } from "../shared/FairClaims.js"
import { equalsWhereGiven, keysetPage } from "../shared/KeysetPage.js"
import { claimLeased, finishLeased } from "../shared/LeasedClaims.js"
import { statusRecordWrites } from "../shared/RecordWrites.js"
import { Column, firstRow, json, stampColumns } from "../shared/Rows.js"
import { tenantScope } from "../shared/TenantScope.js"

const decode = Schema.decodeUnknownSync(CheckoutSessionRecord)
const encode = Schema.encodeSync(CheckoutSessionRecord)

/** A `checkout_sessions` row: the columns the API shows, as either driver gives them. */
const SessionRow = Schema.Struct({
  id: Column.text,
  status: Column.text,
  amount: Column.integer,
  currency: Column.text,
  ui: Column.json,
  allowed_methods: Column.json,
  success_url: Column.text,
  cancel_url: Column.text,
  return_url: Column.nullableText,
  locale: Column.nullableText,
  customer_email: Column.nullableText,
  customer_id: Column.nullableText,
  country: Column.nullableText,
  excluded_providers: Column.json,
  metadata: Column.json,
  payment_id: Column.nullableText,
  payment_ids: Column.json,
  expires_at: Column.timestamp,
  ...stampColumns
})
const decodeRow = Schema.decodeUnknownSync(SessionRow)

/** The payment is never stored with the session; the service expands it when asked. */
const toSession = (row: unknown): CheckoutSessionRecord => decode({ object: "checkout.session", ...decodeRow(row), payment: null })

export const CheckoutSessionsRepositorySql = Layer.effect(
  CheckoutSessionsRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const cursor = laneCursor()
    const ofTenant = tenantScope(sql, "s")
    const findOne = (tenant: Tenant, id: string, forUpdate: boolean) =>
      sql`select s.* from checkout_sessions s where s.id = ${id} and ${ofTenant(tenant)}
        ${forUpdate ? sql`for update` : sql``}`.pipe(firstRow(toSession))

    const writes = statusRecordWrites(sql, {
      table: "checkout_sessions",
      encode,
      insert: (tenant, row, only) =>
        sql`insert into checkout_sessions (id, organization_id, livemode, status, amount, currency,
          ui, allowed_methods, success_url, cancel_url, return_url, locale, customer_email,
          customer_id, country, excluded_providers, metadata, payment_id, payment_ids, expires_at, created_at,
          updated_at)
        select ${row.id}, ${tenant.organizationId}, ${row.livemode}, ${row.status}, ${row.amount},
          ${row.currency}, ${json(row.ui)}::jsonb, ${json(row.allowed_methods)}::jsonb,
          ${row.success_url}, ${row.cancel_url}, ${row.return_url}, ${row.locale}, ${row.customer_email},
          ${row.customer_id}, ${row.country}, ${json(row.excluded_providers)}::jsonb, ${json(row.metadata)}::jsonb,
          ${row.payment_id}, ${json(row.payment_ids)}::jsonb, ${row.expires_at}::timestamptz,
          ${row.created_at}::timestamptz, ${row.updated_at}::timestamptz ${only}`,
      changed: (row) =>
        sql`status = ${row.status}, ui = ${json(row.ui)}::jsonb,
          excluded_providers = ${json(row.excluded_providers)}::jsonb, payment_id = ${row.payment_id},
          payment_ids = ${json(row.payment_ids)}::jsonb, metadata = ${json(row.metadata)}::jsonb,
          updated_at = ${row.updated_at}::timestamptz`
    })

    return CheckoutSessionsRepository.of({
      ...writes,
      find: (tenant, id) => findOne(tenant, id, false),
      findForUpdate: (tenant, id) => findOne(tenant, id, true),
      ownerOf: (id) =>
        sql<{ organization_id: string; livemode: boolean; legacy_client_secret_sha256: string | null }>`select
            organization_id, livemode, legacy_client_secret_sha256
          from checkout_sessions where id = ${id}`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row) => ({
              tenant: { organizationId: row.organization_id, livemode: row.livemode },
              legacySecretDigest: row.legacy_client_secret_sha256
            }))
          ),
          Effect.orDie
        ),
      list: (tenant, filter, page) =>
        keysetPage(sql, {
          table: "checkout_sessions",
          alias: "s",
          scope: ofTenant(tenant),
          filters: equalsWhereGiven(sql, { "s.status": filter.status }),
          page,
          decode: toSession
        }),
      finishClaim: (sessionId, token) => finishLeased(sql, { table: "checkout_sessions", id: sessionId, token }),
      claimExpired: (lease) =>
        claimLeased<{ id: string; organization_id: string; livemode: boolean }, CheckoutSessionRef>(sql, {
          table: "checkout_sessions",
          due: sql`expires_at <= ${DateTime.formatIso(lease.now)}::timestamptz`,
          order: sql`expires_at`,
          returning: sql`id, organization_id, livemode, expires_at`,
          lease,
          item: (row) => ({ tenant: { organizationId: row.organization_id, livemode: row.livemode }, sessionId: row.id }),
          fair: { waiting: sql`status in ('open', 'payment_failed')`, share: EXPIRY_SHARE, cursor }
        })
    })
  })
)
