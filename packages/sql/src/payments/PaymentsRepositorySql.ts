import { SqlClient } from "@effect/sql"
import { type LeaseRequest, Payment, PaymentPolicy, PaymentsRepository, type PaymentWork, type Tenant } from "@orchestrator/core"
import { DateTime, Duration, Effect, Layer, Option, Schema } from "effect"
import { laneCursor } from "../shared/FairClaims.js"
import { equalsWhereGiven, keysetPage } from "../shared/KeysetPage.js"
import { claimLeased, finishLeased } from "../shared/LeasedClaims.js"
import { Column, firstRow, stampColumns } from "../shared/Rows.js"
import { tenantScope } from "../shared/TenantScope.js"
import { paymentWrites } from "./PaymentWritesSql.js"

const decode = Schema.decodeUnknownSync(Payment)

/** An attempt inside a payment row's `attempts` (built by `json_agg`, so its times are text). */
const AttemptJson = Schema.Struct(
  { created_at: Column.timestamp },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)

/** A `payments` row with its attempts: the columns the API shows, as either driver gives them. */
const PaymentRow = Schema.Struct({
  id: Column.text,
  status: Column.text,
  amount: Column.integer,
  amount_captured: Column.integer,
  amount_refunded: Column.integer,
  amount_disputed: Column.integer,
  disputed: Column.boolean,
  currency: Column.text,
  provider: Column.text,
  provider_payment_id: Column.nullableText,
  routing: Column.json,
  payment_method: Column.json,
  customer_id: Column.nullableText,
  description: Column.nullableText,
  metadata: Column.json,
  capture: Column.boolean,
  off_session: Column.boolean,
  return_url: Column.nullableText,
  next_action: Column.json,
  failure: Column.json,
  attempts: Schema.compose(Column.json, Schema.Array(AttemptJson), { strict: false }),
  ...stampColumns
})
const decodeRow = Schema.decodeUnknownSync(PaymentRow)

const toPayment = (row: unknown): Payment => {
  const { attempts, ...payment } = decodeRow(row)
  return decode({
    object: "payment",
    ...payment,
    attempts: attempts.map((attempt) => ({ object: "payment_attempt", ...attempt }))
  })
}

const at = (time: DateTime.Utc) => DateTime.formatIso(time)

export const PaymentsRepositorySql = Layer.effect(
  PaymentsRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** A payment row with its attempts, in order, as one JSON array. */
    const columns = sql`p.*, coalesce((
        select json_agg(json_build_object(
          'id', a.id, 'provider', a.provider, 'status', a.status, 'provider_payment_id', a.provider_payment_id,
          'error_code', a.error_code, 'latency_ms', a.latency_ms, 'created_at', a.created_at
        ) order by a.position)
        from payment_attempts a where a.payment_id = p.id
      ), '[]'::json) as attempts`

    const ofTenant = tenantScope(sql, "p")

    const findOne = (tenant: Tenant, id: string, forUpdate: boolean) =>
      sql`select ${columns} from payments p where p.id = ${id} and ${ofTenant(tenant)}
        ${forUpdate ? sql`for update of p` : sql``}`.pipe(firstRow(toPayment))

    const writes = paymentWrites(sql)

    // Unanswered: the lease (the next look) as the lane index holds it, so payments waiting for a
    // later look bound the walk instead of being read one by one.
    const due = (work: PaymentWork, lease: LeaseRequest) =>
      work._tag === "Waiting"
        ? sql`updated_at < ${at(work.updatedBefore)}::timestamptz`
        : sql`coalesce(lease_until, '-infinity'::timestamptz) <= ${at(lease.now)}::timestamptz
          and exists (select 1 from payment_attempts a where a.payment_id = payments.id
            and a.position = (select max(last.position) from payment_attempts last where last.payment_id = payments.id)
            and a.status in ('pending', 'unknown')
            and a.created_at + case when a.latency_ms is not null then a.latency_ms
                else ${Duration.toMillis(work.callTimeout)}::int end * interval '1 millisecond'
              <= ${at(work.sentBefore)}::timestamptz)`
    /** One cursor per queue: unanswered payments, and each status waiting on someone. */
    const cursors = { unanswered: laneCursor(), requires_action: laneCursor(), requires_capture: laneCursor() }

    return PaymentsRepository.of({
      ...writes,
      find: (tenant, id) => findOne(tenant, id, false),
      findForUpdate: (tenant, id) => findOne(tenant, id, true),
      findByReference: (tenant, { attemptId, pspPaymentId }) =>
        Effect.gen(function*() {
          if (attemptId !== null) {
            const byAttempt = yield* sql`select ${columns} from payments p where ${ofTenant(tenant)}
              and p.id = (select payment_id from payment_attempts where id = ${attemptId})`
            if (byAttempt.length > 0) return Option.some(toPayment(byAttempt[0]))
          }
          if (pspPaymentId === null) return Option.none()
          const byPspId = yield* sql`select ${columns} from payments p where ${ofTenant(tenant)}
            and p.provider_payment_id = ${pspPaymentId} order by p.created_at desc limit 1`
          return Option.map(Option.fromNullable(byPspId[0]), toPayment)
        }).pipe(Effect.orDie),
      tenantOf: (id) =>
        sql<{ organization_id: string; livemode: boolean }>`select organization_id, livemode from payments where id = ${id}`
          .pipe(
            Effect.map((rows) =>
              Option.map(Option.fromNullable(rows[0]), (row) => ({
                organizationId: row.organization_id,
                livemode: row.livemode
              }))
            ),
            Effect.orDie
          ),
      list: (tenant, filter, page) =>
        keysetPage(sql, {
          table: "payments",
          alias: "p",
          select: columns,
          scope: ofTenant(tenant),
          filters: [
            ...equalsWhereGiven(sql, {
              "p.status": filter.status,
              "p.provider": filter.provider,
              "p.currency": filter.currency,
              "p.customer_id": filter.customer_id
            }),
            ...(filter.test_clock === undefined ? [] : [sql`p.metadata ->> 'test_clock' = ${filter.test_clock}`])
          ],
          page,
          order: filter.order_by,
          decode: toPayment
        }),
      recordProviderMessage: (tenant, attemptId, message) =>
        sql`update payment_attempts a set provider_message = ${message} from payments p
          where a.id = ${attemptId} and p.id = a.payment_id and ${ofTenant(tenant)}`.pipe(Effect.asVoid, Effect.orDie),
      providerMessageOf: (tenant, attemptId) =>
        sql<{ provider_message: string | null }>`select a.provider_message from payment_attempts a
          join payments p on p.id = a.payment_id where a.id = ${attemptId} and ${ofTenant(tenant)}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]?.provider_message)),
          Effect.orDie
        ),
      holdUntil: (paymentId, token, until) => finishLeased(sql, { table: "payments", id: paymentId, token, until }),
      finishClaim: (paymentId, token) => finishLeased(sql, { table: "payments", id: paymentId, token }),
      // Each provider connection of a tenant is a lane. Unanswered payments never looked at come
      // first, then the longest overdue (their lease is their next try): the lane index's order, so
      // payments held until a later try are never read.
      claimDue: (work, lease) =>
        claimLeased<{ id: string; organization_id: string; livemode: boolean }, { tenant: Tenant; paymentId: string }>(sql, {
          table: "payments",
          due: due(work, lease),
          order: work._tag === "Unanswered" ? sql`coalesce(lease_until, '-infinity'::timestamptz), updated_at` : sql`updated_at`,
          returning: sql`id, organization_id, livemode, updated_at`,
          lease,
          item: (row) => ({ tenant: { organizationId: row.organization_id, livemode: row.livemode }, paymentId: row.id }),
          fair: {
            lanes: ["provider"],
            waiting: work._tag === "Unanswered" ? sql`status = 'processing'` : sql`status = ${work.status}`,
            share: PaymentPolicy.defaultValue().recoveryShare,
            cursor: cursors[work._tag === "Unanswered" ? "unanswered" : work.status]
          }
        })
    })
  })
)
