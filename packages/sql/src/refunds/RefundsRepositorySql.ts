import { SqlClient } from "@effect/sql"
import { PaymentPolicy, Refund, type RefundRef, RefundsRepository, type Tenant } from "@orchestrator/core"
import { DateTime, Effect, Layer, Schema } from "effect"
import { laneCursor } from "../shared/FairClaims.js"
import { equalsWhereGiven, keysetPage } from "../shared/KeysetPage.js"
import { claimLeased, finishLeased } from "../shared/LeasedClaims.js"
import { statusRecordWrites } from "../shared/RecordWrites.js"
import { Column, firstRow, json, objectFromRow, stampColumns } from "../shared/Rows.js"
import { tenantScope } from "../shared/TenantScope.js"

const encode = Schema.encodeSync(Refund)

/** A `refunds` row: the columns the API shows, as either driver gives them. */
const RefundRow = Schema.Struct({
  id: Column.text,
  payment_id: Column.text,
  amount: Column.integer,
  currency: Column.text,
  status: Column.text,
  reason: Column.nullableText,
  provider_refund_id: Column.nullableText,
  failure: Column.json,
  metadata: Column.json,
  ...stampColumns
})

const toRefund = objectFromRow(RefundRow, "refund", Refund)

export const RefundsRepositorySql = Layer.effect(
  RefundsRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const cursor = laneCursor()
    const ofTenant = tenantScope(sql, "r")
    const findOne = (tenant: Tenant, id: string, forUpdate: boolean) =>
      sql`select r.* from refunds r where r.id = ${id} and ${ofTenant(tenant)} ${forUpdate ? sql`for update` : sql``}`.pipe(firstRow(toRefund))

    const writes = statusRecordWrites(sql, {
      table: "refunds",
      encode,
      insert: (tenant, row, only) =>
        sql`insert into refunds (id, organization_id, livemode, payment_id, amount, currency, status, reason,
          provider_refund_id, failure, metadata, created_at, updated_at)
        select ${row.id}, ${tenant.organizationId}, ${row.livemode}, ${row.payment_id}, ${row.amount},
          ${row.currency}, ${row.status}, ${row.reason}, ${row.provider_refund_id}, ${json(row.failure)}::jsonb,
          ${json(row.metadata)}::jsonb, ${row.created_at}::timestamptz, ${row.updated_at}::timestamptz ${only}`,
      changed: (row) =>
        sql`status = ${row.status}, provider_refund_id = ${row.provider_refund_id},
          failure = ${json(row.failure)}::jsonb, metadata = ${json(row.metadata)}::jsonb,
          updated_at = ${row.updated_at}::timestamptz`
    })

    return RefundsRepository.of({
      ...writes,
      find: (tenant, id) => findOne(tenant, id, false),
      findForUpdate: (tenant, id) => findOne(tenant, id, true),
      findByReference: (tenant, { pspRefundId, refundId }) =>
        sql`select r.* from refunds r where ${ofTenant(tenant)}
          and (r.id = ${refundId} or (${pspRefundId}::text is not null and r.provider_refund_id = ${pspRefundId}))
          order by (r.id = ${refundId}) desc limit 1`.pipe(firstRow(toRefund)),
      list: (tenant, filter, page) =>
        keysetPage(sql, {
          table: "refunds",
          alias: "r",
          scope: ofTenant(tenant),
          filters: equalsWhereGiven(sql, { "r.payment_id": filter.paymentId }),
          page,
          decode: toRefund
        }),
      finishClaim: (refundId, token) => finishLeased(sql, { table: "refunds", id: refundId, token }),
      // Refunds never looked at first, then the longest overdue (their lease is their next look):
      // the lane index's order, so refunds waiting for a later look are never read.
      claimPending: (createdBefore, lease) =>
        claimLeased<{ id: string; organization_id: string; livemode: boolean }, RefundRef>(sql, {
          table: "refunds",
          due: sql`coalesce(lease_until, '-infinity'::timestamptz) <= ${DateTime.formatIso(lease.now)}::timestamptz
            and created_at < ${DateTime.formatIso(createdBefore)}::timestamptz`,
          order: sql`coalesce(lease_until, '-infinity'::timestamptz), created_at`,
          returning: sql`id, organization_id, livemode, created_at`,
          lease,
          item: (row) => ({ tenant: { organizationId: row.organization_id, livemode: row.livemode }, refundId: row.id }),
          fair: { waiting: sql`status = 'pending'`, share: PaymentPolicy.defaultValue().recoveryShare, cursor }
        })
    })
  })
)
