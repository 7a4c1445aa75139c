import { SqlClient } from "@effect/sql"
import { type Context, Effect, Layer, Option } from "effect"
import { type ChargeChanges, OVER_REFUND, SandboxLedger, type SandboxRefund, type SandboxSubscription } from "./SandboxLedger.js"
import { toCharge, toNotification, toRefund, toSubscription } from "./SandboxLedgerRows.js"

/** `bigint` arrives as a string from `pg` and as a number from PGlite. */
const int = (value: unknown): number => Number(value)

/** The column the real-time schedule reads: empty for a subscription on a test clock. */
const realTimeRun = (subscription: SandboxSubscription) => subscription.onTestClock ? null : subscription.nextRunMillis

const columns: Record<keyof ChargeChanges, string> = {
  status: "status",
  amountCaptured: "amount_captured",
  captureReference: "capture_reference",
  failureCode: "failure_code",
  failureMessage: "failure_message"
}

type Sql = SqlClient.SqlClient
type Ledger = Context.Tag.Service<typeof SandboxLedger>

const firstRow = <A>(to: (row: unknown) => A) => (rows: ReadonlyArray<unknown>) => Option.map(Option.fromNullable(rows[0]), to)

const chargeByReference = (sql: Sql) => (connectionId: string, reference: string) =>
  sql`select * from sandbox_charges where connection_id = ${connectionId} and reference = ${reference}`.pipe(
    Effect.map(firstRow(toCharge))
  )

const refundByReference = (sql: Sql) => (connectionId: string, reference: string) =>
  sql`select * from sandbox_refunds where connection_id = ${connectionId} and reference = ${reference}`.pipe(
    Effect.map(firstRow(toRefund))
  )

/**
 * Takes a settling refund's amount off its charge unless that would refund more than was captured;
 * whether it did. The bound is in the statement: two refunds cannot both take the last of a charge.
 */
const takeOffCharge = (sql: Sql, refund: SandboxRefund) =>
  sql`update sandbox_charges set amount_refunded = amount_refunded + ${refund.amount}
    where id = ${refund.chargeId} and amount_refunded + ${refund.amount} <= amount_captured
    returning id`.pipe(Effect.map((rows) => rows.length > 0))

/** Rows of `inserted` (created) before those of `existing`, told apart by `created`. */
const createdOrExisting = (rows: ReadonlyArray<{ readonly created?: unknown }>) =>
  Option.map(Option.fromNullable(rows[0]), (row) => ({ row, created: row.created === true }))

/**
 * The charge, or the one already recorded under its reference, in one statement. Only when another
 * request inserted that reference while this statement ran (its row is newer than our snapshot) is
 * it read again.
 */
const recordCharge = (sql: Sql): Ledger["recordCharge"] => (charge) =>
  Effect.gen(function*() {
    const rows = yield* sql<{ created: unknown }>`with inserted as (insert into sandbox_charges (id, connection_id,
        reference, merchant_reference, amount, currency, token, capture, status, amount_captured, amount_refunded,
        capture_reference, failure_code, failure_message, return_url, created_at_millis)
      values (${charge.id}, ${charge.connectionId}, ${charge.reference}, ${charge.merchantReference},
        ${charge.amount}, ${charge.currency}, ${charge.token}, ${charge.capture}, ${charge.status},
        ${charge.amountCaptured}, ${charge.amountRefunded}, ${charge.captureReference}, ${charge.failureCode},
        ${charge.failureMessage}, ${charge.returnUrl}, ${charge.createdAtMillis})
      on conflict (connection_id, reference) do nothing returning *)
      select true as created, * from inserted
      union all
      select false as created, * from sandbox_charges
      where connection_id = ${charge.connectionId} and reference = ${charge.reference} and not exists (select 1 from inserted)`
    const found = createdOrExisting(rows)
    if (Option.isSome(found) && found.value.created) return { charge, created: true }
    const existing = Option.isSome(found)
      ? toCharge(found.value.row)
      : Option.getOrThrow(yield* chargeByReference(sql)(charge.connectionId, charge.reference))
    return { charge: existing, created: false }
  }).pipe(Effect.orDie)

const transitionCharge = (sql: Sql): Ledger["transitionCharge"] => (id, from, changes) => {
  const assignments = Object.entries(changes).map(([key, value]) => sql`${sql(columns[key as keyof ChargeChanges])} = ${value as string | number | null}`)
  return sql`update sandbox_charges set ${sql.csv(assignments)}
    where id = ${id} and status in ${sql.in(from)} returning *`.pipe(Effect.map(firstRow(toCharge)), Effect.orDie)
}

/**
 * A refund, in one statement: unless its reference is known (then the known one is the answer), the
 * charge's row is locked, the refund stored as asked if the charge covers it (or if it settles
 * later) and as refused otherwise, and a refund that succeeds taken off the charge. The lock
 * serializes refunds of one charge: two racing for its last amount cannot both take it. Only a
 * refund of the same reference inserted meanwhile is read again.
 */
const recordRefund = (sql: Sql): Ledger["recordRefund"] => (refund) =>
  Effect.gen(function*() {
    const asked = refund.status
    const rows = yield* sql<{ created: unknown }>`with existing as (
        select * from sandbox_refunds where connection_id = ${refund.connectionId} and reference = ${refund.reference}
      ), charge as (
        select amount_refunded + ${refund.amount} <= amount_captured as covers from sandbox_charges
        where id = ${refund.chargeId} for update
      ), outcome as (
        select ${asked}::text <> 'succeeded' or coalesce((select covers from charge), false) as covered
      ), inserted as (
        insert into sandbox_refunds (id, connection_id, reference, charge_id, amount, status, failure_code,
          failure_message, created_at_millis, settle_at_millis)
        select ${refund.id}, ${refund.connectionId}, ${refund.reference}, ${refund.chargeId}, ${refund.amount}::bigint,
          case when covered then ${asked} else 'failed' end,
          case when covered then ${refund.failureCode} else ${OVER_REFUND.failureCode} end,
          case when covered then ${refund.failureMessage} else ${OVER_REFUND.failureMessage} end,
          ${refund.createdAtMillis}::bigint, ${refund.settleAtMillis}::bigint
        from outcome where not exists (select 1 from existing)
        on conflict (connection_id, reference) do nothing returning *
      ), taken as (
        update sandbox_charges set amount_refunded = amount_refunded + ${refund.amount}
        where id = ${refund.chargeId} and exists (select 1 from inserted where status = 'succeeded')
      )
      select true as created, * from inserted
      union all
      select false as created, * from existing`
    const found = createdOrExisting(rows)
    if (Option.isSome(found)) return { refund: toRefund(found.value.row), created: found.value.created }
    const winner = yield* refundByReference(sql)(refund.connectionId, refund.reference)
    return { refund: Option.getOrThrow(winner), created: false }
  }).pipe(Effect.orDie)

const settleDueRefunds = (sql: Sql): Ledger["settleDueRefunds"] => (nowMillis, limit) =>
  sql.withTransaction(Effect.gen(function*() {
    const due = yield* sql`select * from sandbox_refunds where status = 'pending'
      and settle_at_millis <= ${nowMillis} order by settle_at_millis limit ${limit} for update skip locked`
    const settled: Array<SandboxRefund> = []
    for (const row of due) {
      const refund = toRefund(row)
      // The same bound as for a refund that succeeds at once.
      const final: SandboxRefund = (yield* takeOffCharge(sql, refund))
        ? { ...refund, status: "succeeded", settleAtMillis: null }
        : { ...refund, status: "failed", ...OVER_REFUND, settleAtMillis: null }
      yield* sql`update sandbox_refunds set status = ${final.status}, failure_code = ${final.failureCode},
        failure_message = ${final.failureMessage}, settle_at_millis = null where id = ${refund.id}`
      settled.push(final)
    }
    return settled
  })).pipe(Effect.orDie)

const notify = (sql: Sql): Ledger["notify"] => (notification) =>
  sql`insert into sandbox_notifications (id, connection_id, payload, created_at_millis)
    values (${notification.id}, ${notification.connectionId}, ${notification.payload}, ${notification.createdAtMillis})
    on conflict (id) do nothing`.pipe(Effect.asVoid, Effect.orDie)

const claimNotifications = (sql: Sql): Ledger["claimNotifications"] => (nowMillis, leaseUntilMillis, limit) =>
  sql`update sandbox_notifications set lease_until_millis = ${leaseUntilMillis}
    where id in (select id from sandbox_notifications where sent_at_millis is null
      and lease_until_millis < ${nowMillis} order by created_at_millis limit ${limit} for update skip locked)
    returning *`.pipe(
    Effect.map((rows) => rows.map(toNotification).sort((a, b) => a.createdAtMillis - b.createdAtMillis)),
    Effect.orDie
  )

const recordSubscription = (sql: Sql): Ledger["recordSubscription"] => (subscription) =>
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
  }).pipe(Effect.orDie)

const saveSubscription = (sql: Sql): Ledger["saveSubscription"] => (next) =>
  sql`update sandbox_subscriptions set state = ${JSON.stringify(next)}, next_run_at_millis = ${realTimeRun(next)},
      version = ${next.version}
    where id = ${next.id} and version = ${next.version - 1} returning id`.pipe(
    Effect.map((rows) => rows.length > 0),
    Effect.orDie
  )

const countCharges = (sql: Sql): Ledger["countCharges"] => (merchantReference) =>
  sql<{ count: unknown }>`select count(*) as count from sandbox_charges
    where merchant_reference = ${merchantReference} and status <> 'failed'`.pipe(
    Effect.map((rows) => int(rows[0]!.count)),
    Effect.orDie
  )

/**
 * The sandbox PSP's books in the same database, in tables of its own (`sandbox_*`, created by the
 * migration `0013_sandbox_ledger` in `packages/sql`).
 */
export const SandboxLedgerSql = Layer.effect(
  SandboxLedger,
  Effect.map(SqlClient.SqlClient, (sql) =>
    SandboxLedger.of({
      recordCharge: recordCharge(sql),
      transitionCharge: transitionCharge(sql),
      findCharge: (id) => sql`select * from sandbox_charges where id = ${id}`.pipe(Effect.map(firstRow(toCharge)), Effect.orDie),
      findChargeByReference: (connectionId, reference) => Effect.orDie(chargeByReference(sql)(connectionId, reference)),
      recordRefund: recordRefund(sql),
      findRefundByReference: (connectionId, reference) => Effect.orDie(refundByReference(sql)(connectionId, reference)),
      settleDueRefunds: settleDueRefunds(sql),
      notify: notify(sql),
      claimNotifications: claimNotifications(sql),
      markNotified: (id, nowMillis) =>
        sql`update sandbox_notifications set sent_at_millis = ${nowMillis} where id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      recordSubscription: recordSubscription(sql),
      findSubscription: (id) => sql`select * from sandbox_subscriptions where id = ${id}`.pipe(Effect.map(firstRow(toSubscription)), Effect.orDie),
      dueSubscriptions: (nowMillis, limit) =>
        sql`select * from sandbox_subscriptions where next_run_at_millis <= ${nowMillis}
          order by next_run_at_millis limit ${limit}`.pipe(Effect.map((rows) => rows.map(toSubscription)), Effect.orDie),
      saveSubscription: saveSubscription(sql),
      countCharges: countCharges(sql)
    }))
)
