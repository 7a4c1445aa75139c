import { SqlClient } from "@effect/sql"
import {
  type ChargeChanges,
  OVER_REFUND,
  type SandboxCharge,
  SandboxLedger,
  type SandboxRefund,
  type SandboxSubscription
} from "./SandboxLedger.js"
import { Effect, Layer, Option } from "effect"

/** `bigint` arrives as a string from `pg` and as a number from PGlite. */
const int = (value: unknown): number => Number(value)

/**
 * The sandbox's own tables, as a real PSP keeps its own database. Created at start, once, under an
 * advisory lock so that several processes starting together do not race on the DDL.
 */
const SCHEMA = `
create table if not exists sandbox_charges (
  id text primary key,
  connection_id text not null,
  reference text not null,
  merchant_reference text not null,
  amount bigint not null,
  currency text not null,
  token text not null,
  capture boolean not null,
  status text not null,
  amount_captured bigint not null,
  amount_refunded bigint not null check (amount_refunded <= amount_captured),
  capture_reference text,
  failure_code text,
  failure_message text,
  return_url text not null,
  created_at_millis bigint not null,
  unique (connection_id, reference)
);
create index if not exists sandbox_charges_by_merchant_reference on sandbox_charges (merchant_reference);
create table if not exists sandbox_refunds (
  id text primary key,
  connection_id text not null,
  reference text not null,
  charge_id text not null,
  amount bigint not null,
  status text not null,
  failure_code text,
  failure_message text,
  created_at_millis bigint not null,
  unique (connection_id, reference)
);
alter table sandbox_refunds add column if not exists settle_at_millis bigint;
create table if not exists sandbox_notifications (
  id text primary key,
  connection_id text not null,
  payload text not null,
  created_at_millis bigint not null,
  sent_at_millis bigint,
  lease_until_millis bigint not null default 0
);
create index if not exists sandbox_notifications_unsent on sandbox_notifications (created_at_millis)
  where sent_at_millis is null;
create table if not exists sandbox_subscriptions (
  id text primary key,
  connection_id text not null,
  reference text not null,
  state text not null,
  next_run_at_millis bigint,
  version integer not null,
  unique (connection_id, reference)
);
create index if not exists sandbox_subscriptions_due on sandbox_subscriptions (next_run_at_millis)
  where next_run_at_millis is not null;`

/** An arbitrary, fixed key for `pg_advisory_xact_lock`: "sandbox" in ASCII. */
const SCHEMA_LOCK = 0x73616e64626f78

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
  captureReference: row.capture_reference,
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
  createdAtMillis: int(row.created_at_millis),
  settleAtMillis: row.settle_at_millis === null || row.settle_at_millis === undefined ? null : int(row.settle_at_millis)
})

/** A subscription is kept whole as JSON; only what is queried has columns of its own. */
const toSubscription = (row: any): SandboxSubscription => JSON.parse(row.state)
/** The column the real-time schedule reads: empty for a subscription on a test clock. */
const realTimeRun = (subscription: SandboxSubscription) => subscription.onTestClock ? null : subscription.nextRunMillis

const columns: Record<keyof ChargeChanges, string> = {
  status: "status",
  amountCaptured: "amount_captured",
  captureReference: "capture_reference",
  failureCode: "failure_code",
  failureMessage: "failure_message"
}

/** The sandbox PSP's books in the same database, in tables of its own (`sandbox_*`). */
export const SandboxLedgerSql = Layer.effect(
  SandboxLedger,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(
      Effect.zipRight(sql`select pg_advisory_xact_lock(${SCHEMA_LOCK})`, sql.unsafe(SCHEMA).unprepared)
    ).pipe(Effect.orDie)
    const one = <A>(to: (row: any) => A) => (rows: ReadonlyArray<any>) => Option.map(Option.fromNullable(rows[0]), to)
    const chargeByReference = (connectionId: string, reference: string) =>
      sql`select * from sandbox_charges where connection_id = ${connectionId} and reference = ${reference}`.pipe(
        Effect.map(one(toCharge))
      )
    const refundByReference = (connectionId: string, reference: string) =>
      sql`select * from sandbox_refunds where connection_id = ${connectionId} and reference = ${reference}`.pipe(
        Effect.map(one(toRefund))
      )
    const insertRefund = (refund: SandboxRefund) =>
      sql`insert into sandbox_refunds (id, connection_id, reference, charge_id, amount, status, failure_code,
          failure_message, created_at_millis, settle_at_millis)
        values (${refund.id}, ${refund.connectionId}, ${refund.reference}, ${refund.chargeId}, ${refund.amount},
          ${refund.status}, ${refund.failureCode}, ${refund.failureMessage}, ${refund.createdAtMillis},
          ${refund.settleAtMillis})
        on conflict (connection_id, reference) do nothing returning id`

    return SandboxLedger.of({
      recordCharge: (charge) =>
        Effect.gen(function*() {
          const inserted = yield* sql`insert into sandbox_charges (id, connection_id, reference, merchant_reference,
              amount, currency, token, capture, status, amount_captured, amount_refunded, capture_reference,
              failure_code, failure_message, return_url, created_at_millis)
            values (${charge.id}, ${charge.connectionId}, ${charge.reference}, ${charge.merchantReference},
              ${charge.amount}, ${charge.currency}, ${charge.token}, ${charge.capture}, ${charge.status},
              ${charge.amountCaptured}, ${charge.amountRefunded}, ${charge.captureReference}, ${charge.failureCode},
              ${charge.failureMessage}, ${charge.returnUrl}, ${charge.createdAtMillis})
            on conflict (connection_id, reference) do nothing returning id`
          if (inserted.length > 0) return { charge, created: true }
          return { charge: Option.getOrThrow(yield* chargeByReference(charge.connectionId, charge.reference)), created: false }
        }).pipe(Effect.orDie),
      transitionCharge: (id, from, changes) => {
        const assignments = Object.entries(changes).map(([key, value]) =>
          sql`${sql(columns[key as keyof ChargeChanges])} = ${value as string | number | null}`
        )
        return sql`update sandbox_charges set ${sql.csv(assignments)}
          where id = ${id} and status in ${sql.in(from)} returning *`.pipe(Effect.map(one(toCharge)), Effect.orDie)
      },
      findCharge: (id) => sql`select * from sandbox_charges where id = ${id}`.pipe(Effect.map(one(toCharge)), Effect.orDie),
      findChargeByReference: (connectionId, reference) => Effect.orDie(chargeByReference(connectionId, reference)),
      recordRefund: (refund) =>
        sql.withTransaction(Effect.gen(function*() {
          const existing = yield* refundByReference(refund.connectionId, refund.reference)
          if (Option.isSome(existing)) return { refund: existing.value, created: false }
          // The bound is in the statement: two refunds racing cannot both take the last of the charge.
          const covered = refund.status !== "succeeded" ||
            (yield* sql`update sandbox_charges set amount_refunded = amount_refunded + ${refund.amount}
              where id = ${refund.chargeId} and amount_refunded + ${refund.amount} <= amount_captured
              returning id`).length > 0
          const stored: SandboxRefund = covered ? refund : { ...refund, status: "failed", ...OVER_REFUND }
          const inserted = yield* insertRefund(stored)
          if (inserted.length > 0) return { refund: stored, created: true }
          // Lost a race on the same reference: undo our reservation and answer with the winner.
          if (covered && stored.status === "succeeded") {
            yield* sql`update sandbox_charges set amount_refunded = amount_refunded - ${refund.amount}
              where id = ${refund.chargeId}`
          }
          return {
            refund: Option.getOrThrow(yield* refundByReference(refund.connectionId, refund.reference)),
            created: false
          }
        })).pipe(Effect.orDie),
      findRefundByReference: (connectionId, reference) => Effect.orDie(refundByReference(connectionId, reference)),
      settleDueRefunds: (nowMillis, limit) =>
        sql.withTransaction(Effect.gen(function*() {
          const due = yield* sql`select * from sandbox_refunds where status = 'pending'
            and settle_at_millis <= ${nowMillis} order by settle_at_millis limit ${limit} for update skip locked`
          const settled: Array<SandboxRefund> = []
          for (const row of due) {
            const refund = toRefund(row)
            // The bound is in the statement, as for a refund that succeeds at once.
            const covered = (yield* sql`update sandbox_charges set amount_refunded = amount_refunded + ${refund.amount}
              where id = ${refund.chargeId} and amount_refunded + ${refund.amount} <= amount_captured
              returning id`).length > 0
            const final: SandboxRefund = covered
              ? { ...refund, status: "succeeded", settleAtMillis: null }
              : { ...refund, status: "failed", ...OVER_REFUND, settleAtMillis: null }
            yield* sql`update sandbox_refunds set status = ${final.status}, failure_code = ${final.failureCode},
              failure_message = ${final.failureMessage}, settle_at_millis = null where id = ${refund.id}`
            settled.push(final)
          }
          return settled
        })).pipe(Effect.orDie),
      notify: (notification) =>
        sql`insert into sandbox_notifications (id, connection_id, payload, created_at_millis)
          values (${notification.id}, ${notification.connectionId}, ${notification.payload}, ${notification.createdAtMillis})
          on conflict (id) do nothing`.pipe(Effect.asVoid, Effect.orDie),
      claimNotifications: (nowMillis, leaseUntilMillis, limit) =>
        sql`update sandbox_notifications set lease_until_millis = ${leaseUntilMillis}
          where id in (select id from sandbox_notifications where sent_at_millis is null
            and lease_until_millis < ${nowMillis} order by created_at_millis limit ${limit} for update skip locked)
          returning *`.pipe(
          Effect.map((rows) =>
            rows.map((row: any) => ({
              id: row.id,
              connectionId: row.connection_id,
              payload: row.payload,
              createdAtMillis: int(row.created_at_millis)
            })).sort((a, b) => a.createdAtMillis - b.createdAtMillis)
          ),
          Effect.orDie
        ),
      markNotified: (id, nowMillis) =>
        sql`update sandbox_notifications set sent_at_millis = ${nowMillis} where id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      recordSubscription: (subscription) =>
        Effect.gen(function*() {
          const inserted = yield* sql`insert into sandbox_subscriptions (id, connection_id, reference, state,
              next_run_at_millis, version)
            values (${subscription.id}, ${subscription.connectionId}, ${subscription.reference},
              ${JSON.stringify(subscription)}, ${realTimeRun(subscription)}, ${subscription.version})
            on conflict (connection_id, reference) do nothing returning id`
          if (inserted.length > 0) return { subscription, created: true }
          const rows = yield* sql`select * from sandbox_subscriptions
            where connection_id = ${subscription.connectionId} and reference = ${subscription.reference}`
          return { subscription: toSubscription(rows[0]), created: false }
        }).pipe(Effect.orDie),
      findSubscription: (id) =>
        sql`select * from sandbox_subscriptions where id = ${id}`.pipe(Effect.map(one(toSubscription)), Effect.orDie),
      dueSubscriptions: (nowMillis, limit) =>
        sql`select * from sandbox_subscriptions where next_run_at_millis <= ${nowMillis}
          order by next_run_at_millis limit ${limit}`.pipe(Effect.map((rows) => rows.map(toSubscription)), Effect.orDie),
      saveSubscription: (next) =>
        sql`update sandbox_subscriptions set state = ${JSON.stringify(next)}, next_run_at_millis = ${realTimeRun(next)},
            version = ${next.version}
          where id = ${next.id} and version = ${next.version - 1} returning id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      countCharges: (merchantReference) =>
        sql<{ count: unknown }>`select count(*) as count from sandbox_charges
          where merchant_reference = ${merchantReference} and status <> 'failed'`.pipe(
          Effect.map((rows) => int(rows[0]!.count)),
          Effect.orDie
        )
    })
  })
)
