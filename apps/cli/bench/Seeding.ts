/**
 * Volume made by SQL, not through the API: a million stored payments (with their attempts) to list
 * and to pay beside, and a backlog of events for the webhook workers to drain.
 */
import { SqlClient } from "@effect/sql"
import { Database } from "@orchestrator/sql"
import { Effect } from "effect"

const run = <A>(database: Database.DatabaseConfig, effect: Effect.Effect<A, unknown, SqlClient.SqlClient>) =>
  Effect.runPromise(effect.pipe(Effect.provide(Database.clientLayer(database)), Effect.scoped))

export const seedPayments = (database: Database.DatabaseConfig, organizationId: string, count: number) =>
  run(
    database,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const batch = 100_000
      for (let from = 0; from < count; from += batch) {
        const to = Math.min(count, from + batch) - 1
        // Older than anything the bench creates, a second apart, like months of history.
        yield* sql`insert into payments (id, organization_id, livemode, status, amount, amount_captured, amount_refunded,
          currency, provider, payment_method, metadata, capture, created_at, updated_at)
        select 'pay_seed_' || lpad(n::text, 9, '0'), ${organizationId}, false, 'succeeded', 1000 + n % 5000,
          1000 + n % 5000, 0, 'EUR', 'sandbox_a', '{"type":"card","token":"tok_visa","brand":"visa","last4":"4242"}'::jsonb,
          '{}'::jsonb, true, now() - interval '400 days' + n * interval '1 second',
          now() - interval '400 days' + n * interval '1 second'
        from generate_series(${from}::int, ${to}::int) as n`
        yield* sql`insert into payment_attempts (id, payment_id, position, provider, status, created_at)
        select 'att_seed_' || lpad(n::text, 9, '0'), 'pay_seed_' || lpad(n::text, 9, '0'), 0, 'sandbox_a', 'succeeded',
          now() - interval '400 days' + n * interval '1 second'
        from generate_series(${from}::int, ${to}::int) as n`
      }
      yield* sql`analyze payments`
      yield* sql`analyze payment_attempts`
      // The seeding's writes flushed now, not in the middle of the measurement that follows.
      yield* sql`checkpoint`
    })
  )

/**
 * `count` undispatched `payment.succeeded` events about `payment` (a real one, as the API shows it):
 * the outbox the worker fans out and delivers.
 */
export const seedEvents = (database: Database.DatabaseConfig, organizationId: string, count: number, payment: unknown) =>
  run(
    database,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`insert into events (id, organization_id, livemode, type, api_version, data, created_at)
      select 'evt_seed_' || lpad(n::text, 9, '0'), ${organizationId}, false, 'payment.succeeded', '2026-11-01',
        -- A backlog of many payments: one object's events go out one after the other.
        jsonb_build_object('object', jsonb_set(${JSON.stringify(payment)}::jsonb, '{id}', to_jsonb('pay_seed_' || n))),
        now() + n * interval '1 microsecond'
      from generate_series(1, ${count}::int) as n`
    })
  )
