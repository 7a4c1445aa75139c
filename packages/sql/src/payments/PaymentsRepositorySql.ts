import { SqlClient } from "@effect/sql"
import { Payment } from "@orchestrator/core/payments/Payment"
import { type PaymentWork, PaymentsRepository } from "@orchestrator/core/payments/PaymentsRepository"
import type { Tenant } from "@orchestrator/core/domain/Tenant"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { keysetPage } from "../shared/KeysetPage.js"
import { claimLeased } from "../shared/LeasedClaims.js"
import { type RowsAlongside, statusRecordWrites } from "../shared/RecordWrites.js"
import { int, iso, json, parsed } from "../shared/Rows.js"

const decode = Schema.decodeUnknownSync(Payment)
const encode = Schema.encodeSync(Payment)

const toPayment = (row: any): Payment =>
  decode({
    object: "payment",
    id: row.id,
    status: row.status,
    amount: int(row.amount),
    amount_captured: int(row.amount_captured),
    amount_refunded: int(row.amount_refunded),
    currency: row.currency,
    provider: row.provider,
    provider_payment_id: row.provider_payment_id,
    routing: parsed(row.routing),
    payment_method: parsed(row.payment_method),
    customer_id: row.customer_id,
    description: row.description,
    metadata: parsed(row.metadata),
    capture: row.capture,
    off_session: row.off_session,
    return_url: row.return_url,
    next_action: parsed(row.next_action),
    failure: parsed(row.failure),
    attempts: parsed<Array<any>>(row.attempts).map((attempt) => ({
      object: "payment_attempt",
      ...attempt,
      created_at: iso(attempt.created_at)
    })),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    livemode: row.livemode
  })

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

    const ofTenant = (tenant: Tenant) =>
      sql`p.organization_id = ${tenant.organizationId} and p.livemode = ${tenant.livemode}`

    const findOne = (tenant: Tenant, id: string, forUpdate: boolean) =>
      sql`select ${columns} from payments p where p.id = ${id} and ${ofTenant(tenant)}
        ${forUpdate ? sql`for update of p` : sql``}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toPayment)),
        Effect.orDie
      )

    const attemptRows = (payment: ReturnType<typeof encode>) =>
      sql.csv(payment.attempts.map((attempt, position) =>
        sql`(${attempt.id}, ${payment.id}, ${position}::integer, ${attempt.provider}, ${attempt.status},
          ${attempt.provider_payment_id}, ${attempt.error_code}, ${attempt.latency_ms}::integer, ${attempt.created_at}::timestamptz)`
      ))

    const ATTEMPT_COLUMNS = "id, payment_id, position, provider, status, provider_payment_id, error_code, latency_ms, created_at"
    const upsertAttempts = sql`on conflict (id) do update set status = excluded.status,
            provider_payment_id = excluded.provider_payment_id, error_code = excluded.error_code,
            latency_ms = excluded.latency_ms`

    /** The payment's attempts, written with it (inserted, or updated when they exist). */
    const attemptsAlongside = (payment: ReturnType<typeof encode>): ReadonlyArray<RowsAlongside> =>
      payment.attempts.length === 0
        ? []
        : [{ table: "payment_attempts", columns: ATTEMPT_COLUMNS, rows: attemptRows(payment), conflict: upsertAttempts }]

    /** Never a payment's amount, currency, tenant or creation: what a change of it may touch. */
    const writes = statusRecordWrites(sql, {
      table: "payments",
      encode,
      insert: (tenant, row) =>
        sql`insert into payments (id, organization_id, livemode, status, amount, amount_captured, amount_refunded,
          currency, provider, provider_payment_id, routing, payment_method, customer_id, description, metadata,
          capture, off_session, return_url, next_action, failure, created_at, updated_at)
        values (${row.id}, ${tenant.organizationId}, ${row.livemode}, ${row.status}, ${row.amount},
          ${row.amount_captured}, ${row.amount_refunded}, ${row.currency}, ${row.provider},
          ${row.provider_payment_id}, ${json(row.routing)}::jsonb, ${json(row.payment_method)}::jsonb,
          ${row.customer_id}, ${row.description},
          ${json(row.metadata)}::jsonb, ${row.capture}, ${row.off_session}, ${row.return_url},
          ${json(row.next_action)}::jsonb, ${json(row.failure)}::jsonb, ${row.created_at}::timestamptz,
          ${row.updated_at}::timestamptz)`,
      changed: (row) =>
        sql`status = ${row.status}, amount_captured = ${row.amount_captured},
            amount_refunded = ${row.amount_refunded}, provider = ${row.provider},
            provider_payment_id = ${row.provider_payment_id}, payment_method = ${json(row.payment_method)}::jsonb,
            metadata = ${json(row.metadata)}::jsonb, next_action = ${json(row.next_action)}::jsonb,
            failure = ${json(row.failure)}::jsonb, updated_at = ${row.updated_at}::timestamptz`,
      alongside: attemptsAlongside
    })

    const due = (work: PaymentWork) =>
      work._tag === "Waiting"
        ? sql`status = ${work.status} and updated_at < ${at(work.updatedBefore)}::timestamptz`
        : sql`status = 'processing' and exists (select 1 from payment_attempts a where a.payment_id = payments.id
            and a.status in ('pending', 'unknown') and a.created_at < ${at(work.sentBefore)}::timestamptz)`

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
          select: columns,
          from: sql`payments p`,
          alias: "p",
          scope: ofTenant(tenant),
          filters: [
            ...(filter.status === undefined ? [] : [sql`p.status = ${filter.status}`]),
            ...(filter.provider === undefined ? [] : [sql`p.provider = ${filter.provider}`]),
            ...(filter.currency === undefined ? [] : [sql`p.currency = ${filter.currency}`]),
            ...(filter.customer_id === undefined ? [] : [sql`p.customer_id = ${filter.customer_id}`]),
            ...(filter.test_clock === undefined ? [] : [sql`p.metadata ->> 'test_clock' = ${filter.test_clock}`])
          ],
          page,
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
      holdUntil: (paymentId, token, until) =>
        sql`update payments set lease_until = ${at(until)}::timestamptz
          where id = ${paymentId} and lease_token = ${token}`.pipe(Effect.asVoid, Effect.orDie),
      claimDue: (work, lease) =>
        claimLeased<{ id: string; organization_id: string; livemode: boolean }, { tenant: Tenant; paymentId: string }>(sql, {
          table: "payments",
          due: due(work),
          order: sql`updated_at`,
          returning: sql`id, organization_id, livemode, updated_at`,
          lease,
          item: (row) => ({ tenant: { organizationId: row.organization_id, livemode: row.livemode }, paymentId: row.id })
        })
    })
  })
)
