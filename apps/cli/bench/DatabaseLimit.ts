/**
 * The database's own limit for one payment's durable writes, with the service's driver and pool:
 * insert the payment, its attempt and its event, insert then complete the idempotency record, in
 * one transaction, replayed by as many concurrent clients as the HTTP load uses. The service can at
 * best approach this; `ratio_to_db_limit` says how close it gets.
 */
import { SqlClient } from "@effect/sql"
import { Database } from "@orchestrator/sql"
import { Effect } from "effect"

export const measureDatabaseLimit = (options: {
  readonly database: Database.DatabaseConfig
  readonly organizationId: string
  readonly concurrency: number
  readonly seconds: number
}) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const org = options.organizationId
    let counter = 0
    const payment = Effect.gen(function*() {
      const n = counter++
      const id = `pay_dblimit_${process.pid}_${n}`
      const key = `dblimit-${process.pid}-${n}`
      const now = new Date().toISOString()
      yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`insert into idempotency_keys (organization_id, livemode, key, fingerprint, locked_until, lock_token, created_at)
          values (${org}, false, ${key}, 'f', ${now}::timestamptz, 'token', ${now}::timestamptz)`
        yield* sql`insert into payments (id, organization_id, livemode, status, amount, amount_captured, amount_refunded,
            currency, provider, payment_method, metadata, capture, created_at, updated_at)
          values (${id}, ${org}, false, 'succeeded', 1234, 1234, 0, 'EUR', 'sandbox_a',
            '{"type":"card","token":"tok_visa"}'::jsonb, '{}'::jsonb, true, ${now}::timestamptz, ${now}::timestamptz)`
        yield* sql`insert into payment_attempts (id, payment_id, position, provider, status, created_at)
          values (${`att_dblimit_${process.pid}_${n}`}, ${id}, 0, 'sandbox_a', 'succeeded', ${now}::timestamptz)`
        yield* sql`insert into events (id, organization_id, livemode, type, api_version, data, created_at)
          values (${`evt_dblimit_${process.pid}_${n}`}, ${org}, false, 'payment.succeeded', '2026-11-01', '{}'::jsonb,
            ${now}::timestamptz)`
        yield* sql`update idempotency_keys set resource_id = ${id}, response_status = 201, response_body = '{}',
            locked_until = null, lock_token = null
          where organization_id = ${org} and livemode = false and key = ${key}`
      }))
    })
    const stopAt = Date.now() + options.seconds * 1000
    let done = 0
    const client = Effect.gen(function*() {
      while (Date.now() < stopAt) {
        yield* payment
        done++
      }
    })
    const started = Date.now()
    yield* Effect.all(Array.from({ length: options.concurrency }, () => client), { concurrency: "unbounded", discard: true })
    const transactionsPerSecond = done / ((Date.now() - started) / 1000)
    // The reference rows are no payments of anyone's: they go again.
    yield* sql`delete from payment_attempts where id like 'att_dblimit_%'`
    yield* sql`delete from payments where id like 'pay_dblimit_%'`
    yield* sql`delete from events where id like 'evt_dblimit_%'`
    yield* sql`delete from idempotency_keys where key like 'dblimit-%'`
    return transactionsPerSecond
  }).pipe(Effect.provide(Database.clientLayer(options.database)), Effect.scoped)
