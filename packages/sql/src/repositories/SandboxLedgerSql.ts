import { SqlClient } from "@effect/sql"
import { type SandboxCharge, SandboxLedger, type SandboxRefund } from "@orchestrator/connectors/sandbox/SandboxLedger"
import { Effect, Layer, Option } from "effect"
import { int } from "./Rows.js"

const toCharge = (row: any): SandboxCharge => ({
  id: row.id,
  connectionId: row.connection_id,
  reference: row.reference,
  merchantReference: row.merchant_reference,
  amount: int(row.amount),
  currency: row.currency,
  token: row.token,
  capture: row.capture,
  status: row.status,
  amountCaptured: int(row.amount_captured),
  amountRefunded: int(row.amount_refunded),
  failureCode: row.failure_code,
  failureMessage: row.failure_message,
  returnUrl: row.return_url,
  createdAtMillis: int(row.created_at_millis)
})

const toRefund = (row: any): SandboxRefund => ({
  id: row.id,
  connectionId: row.connection_id,
  reference: row.reference,
  chargeId: row.charge_id,
  amount: int(row.amount),
  status: row.status,
  failureCode: row.failure_code,
  failureMessage: row.failure_message,
  createdAtMillis: int(row.created_at_millis)
})

/** The sandbox PSP's books in the same database, in tables of its own (`sandbox_*`). */
export const SandboxLedgerSql = Layer.effect(
  SandboxLedger,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const chargeByReference = (connectionId: string, reference: string) =>
      sql`select * from sandbox_charges where connection_id = ${connectionId} and reference = ${reference}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toCharge))
      )
    const refundByReference = (connectionId: string, reference: string) =>
      sql`select * from sandbox_refunds where connection_id = ${connectionId} and reference = ${reference}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toRefund))
      )
    return SandboxLedger.of({
      recordCharge: (charge) =>
        Effect.gen(function*() {
          const inserted = yield* sql`insert into sandbox_charges (id, connection_id, reference, merchant_reference,
              amount, currency, token, capture, status, amount_captured, amount_refunded, failure_code, failure_message,
              return_url, created_at_millis)
            values (${charge.id}, ${charge.connectionId}, ${charge.reference}, ${charge.merchantReference},
              ${charge.amount}, ${charge.currency}, ${charge.token}, ${charge.capture}, ${charge.status},
              ${charge.amountCaptured}, ${charge.amountRefunded}, ${charge.failureCode}, ${charge.failureMessage},
              ${charge.returnUrl}, ${charge.createdAtMillis})
            on conflict (connection_id, reference) do nothing returning id`
          if (inserted.length > 0) return { charge, created: true }
          const existing = yield* chargeByReference(charge.connectionId, charge.reference)
          return { charge: Option.getOrThrow(existing), created: false }
        }).pipe(Effect.orDie),
      updateCharge: (charge) =>
        sql`update sandbox_charges set status = ${charge.status}, amount_captured = ${charge.amountCaptured},
            amount_refunded = ${charge.amountRefunded}, failure_code = ${charge.failureCode},
            failure_message = ${charge.failureMessage}
          where id = ${charge.id}`.pipe(Effect.asVoid, Effect.orDie),
      findCharge: (id) =>
        sql`select * from sandbox_charges where id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toCharge)),
          Effect.orDie
        ),
      findChargeByReference: (connectionId, reference) => Effect.orDie(chargeByReference(connectionId, reference)),
      recordRefund: (refund) =>
        Effect.gen(function*() {
          const inserted = yield* sql`insert into sandbox_refunds (id, connection_id, reference, charge_id, amount,
              status, failure_code, failure_message, created_at_millis)
            values (${refund.id}, ${refund.connectionId}, ${refund.reference}, ${refund.chargeId}, ${refund.amount},
              ${refund.status}, ${refund.failureCode}, ${refund.failureMessage}, ${refund.createdAtMillis})
            on conflict (connection_id, reference) do nothing returning id`
          if (inserted.length > 0) return { refund, created: true }
          const existing = yield* refundByReference(refund.connectionId, refund.reference)
          return { refund: Option.getOrThrow(existing), created: false }
        }).pipe(Effect.orDie),
      findRefundByReference: (connectionId, reference) => Effect.orDie(refundByReference(connectionId, reference)),
      countCharges: (merchantReference) =>
        sql<{ count: unknown }>`select count(*) as count from sandbox_charges
          where merchant_reference = ${merchantReference} and status <> 'failed'`.pipe(
          Effect.map((rows) => int(rows[0]!.count)),
          Effect.orDie
        )
    })
  })
)
