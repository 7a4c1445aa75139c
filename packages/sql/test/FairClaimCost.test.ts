import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { PaymentsRepository, WebhookDeliveriesRepository } from "@orchestrator/core"
import { durableTestDatabases } from "@orchestrator/testing"
import { DateTime, Duration, Effect, Layer } from "effect"
import * as Database from "../src/Database.js"
import { PaymentsRepositorySql } from "../src/payments/PaymentsRepositorySql.js"
import { WebhookDeliveriesRepositorySql } from "../src/webhooks/WebhookDeliveriesRepositorySql.js"

/**
 * What a fair claim reads on a large, hostile backlog (PostgreSQL, with its planner and statistics):
 * the lanes it visits and a few rows of each, never the backlog of one organization that cannot be
 * served now (an endpoint whose circuit is open, retries due later, payments waiting for their next
 * look). The plans are read too: no sequential scan of the queue's table.
 */
const postgres = durableTestDatabases().find((database) => database.name === "postgres")

const BACKLOG = 20_000
const OTHERS = 100

/** Rows of every table and index read so far by the current transaction. */
const rowsReadSoFar = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql<{ rows: string }>`select coalesce(sum(seq_tup_read + coalesce(idx_tup_fetch, 0)), 0)::text as rows
    from pg_stat_xact_user_tables`.pipe(Effect.map(([row]) => Number(row!.rows)))
)

/**
 * How many sequential scans of `table` the plans of `claim` hold, as PostgreSQL's EXPLAIN gives them:
 * `claim` runs on a repository built by `layer` over a client that explains each claim first.
 */
const sequentialScansOf = <I, A>(
  table: string,
  layer: Layer.Layer<I, never, SqlClient.SqlClient>,
  claim: Effect.Effect<A, never, I>
) =>
  Effect.gen(function*() {
    const plans: Array<string> = []
    const explainingClient = Layer.effect(SqlClient.SqlClient, Effect.map(SqlClient.SqlClient, (sql) => explaining(sql, plans)))
    yield* Effect.scoped(Effect.flatMap(Layer.build(Layer.provide(layer, explainingClient)), (context) => Effect.provide(claim, context)))
    if (process.env.PRINT_PLANS === "1") console.log(plans.join("\n\n"))
    // Read the claim's own plan, or this check would pass having read nothing.
    expect(plans.length).toBeGreaterThan(0)
    return plans.flatMap((plan) => [...plan.matchAll(new RegExp(`Seq Scan on ${table}\\b`, "g"))]).length
  })

/** A client that runs every statement once under `explain` (kept in `plans`), then for real. */
const explaining = (sql: SqlClient.SqlClient, plans: Array<string>): SqlClient.SqlClient =>
  new Proxy(sql, {
    apply: (target, self, args: Array<unknown>) => {
      const statement = Reflect.apply(target, self, args)
      const template = Array.isArray(args[0]) && "raw" in (args[0] as object)
      if (!template) return statement
      const [text, params] = (statement as unknown as { compile: () => readonly [string, ReadonlyArray<unknown>] }).compile()
      if (!/^\s*(with|update|select)/i.test(text) || !/lease_token/.test(text)) return statement
      return target.unsafe(`explain ${text}`, params as Array<never>).pipe(
        Effect.tap((rows) => Effect.sync(() => plans.push(rows.map((row) => Object.values(row as object)[0]).join("\n")))),
        Effect.zipRight(statement)
      )
    }
  }) as SqlClient.SqlClient

describe.skipIf(postgres === undefined)("fair claims on a large hostile backlog, on PostgreSQL", () => {
  it.live(
    `deliveries: ${BACKLOG} to an endpoint whose circuit is open and ${BACKLOG} retries due tomorrow cost nothing to ${OTHERS} other organizations' claims`,
    () =>
      Effect.gen(function*() {
        const config = yield* postgres!.create
        const context = yield* Layer.build(WebhookDeliveriesRepositorySql.pipe(Layer.provideMerge(Database.layer(config))))
        const { claimed, read, scans } = yield* Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`insert into organizations (id, name, created_at)
            select 'org_' || lpad(n::text, 4, '0'), 'Org ' || n, now() from generate_series(0, ${OTHERS}::int) as n`
          yield* sql`insert into webhook_endpoints (id, organization_id, livemode, url, enabled_events, status, secret_sealed,
              created_at, updated_at, circuit_open_until)
            select 'we_' || lpad(n::text, 4, '0'), 'org_' || lpad(n::text, 4, '0'), false, 'https://merchant.test/hooks', '["*"]', 'active',
              'sealed', now(), now(), null
            from generate_series(1, ${OTHERS}::int) as n`
          yield* sql`insert into webhook_endpoints (id, organization_id, livemode, url, enabled_events, status, secret_sealed,
              created_at, updated_at, circuit_open_until, failure_count)
            values ('we_hostile_open', 'org_0000', false, 'https://hangs.test/', '["*"]', 'active', 'sealed', now(), now(),
              now() + interval '10 minutes', 12),
              ('we_hostile_later', 'org_0000', false, 'https://hangs.test/b', '["*"]', 'active', 'sealed', now(), now(), null, 0)`
          const insertDeliveries = (endpoint: string, organization: string, count: number, due: string) =>
            sql.unsafe(`insert into webhook_deliveries (id, organization_id, livemode, event_id, endpoint_id, type, status,
                attempt_count, next_attempt_at, payload, created_at, updated_at, object_id, event_created_at)
              select 'whev_${endpoint}_' || n, '${organization}', false, 'evt_${endpoint}_' || n, '${endpoint}', 'payment.succeeded',
                'pending', 1, ${due}, '{}', now(), now(), null, now()
              from generate_series(1, ${count}) as n`)
          yield* insertDeliveries("we_hostile_open", "org_0000", BACKLOG, "now() - interval '1 hour'")
          yield* insertDeliveries("we_hostile_later", "org_0000", BACKLOG, "now() + interval '1 day'")
          for (let n = 1; n <= OTHERS; n++) {
            const id = String(n).padStart(4, "0")
            yield* insertDeliveries(`we_${id}`, `org_${id}`, 1, "now() - interval '1 second'")
          }
          yield* sql`analyze`
          const repository = yield* WebhookDeliveriesRepository
          const now = yield* DateTime.now
          const claim = repository.claimDue({ now, until: DateTime.add(now, { seconds: 30 }), limit: 32 })
          return yield* sql.withTransaction(Effect.gen(function*() {
            const before = yield* rowsReadSoFar
            const claimed = yield* claim
            const read = (yield* rowsReadSoFar) - before
            const scans = yield* sequentialScansOf(
              "webhook_deliveries",
              WebhookDeliveriesRepositorySql,
              Effect.flatMap(WebhookDeliveriesRepository, (again) => again.claimDue({ now, until: DateTime.add(now, { seconds: 30 }), limit: 32 }))
            )
            return { claimed, read, scans }
          }))
        }).pipe(Effect.provide(context))

        // 32 other organizations served, none of the hostile one's deliveries (its circuit is open, its retries later).
        expect(claimed).toHaveLength(32)
        expect(claimed.every(({ item }) => item.tenant.organizationId !== "org_0000")).toBe(true)
        expect(new Set(claimed.map(({ item }) => item.tenant.organizationId)).size).toBe(32)
        // A few rows per lane walked (102 lanes), not the 40 000 of the hostile one.
        expect(read).toBeLessThan(2_000)
        expect(scans).toBe(0)
      }).pipe(Effect.scoped),
    180_000
  )

  it.live(
    `reconciliation: ${BACKLOG} payments of one connection waiting for their next look cost nothing to the one due`,
    () =>
      Effect.gen(function*() {
        const config = yield* postgres!.create
        const context = yield* Layer.build(PaymentsRepositorySql.pipe(Layer.provideMerge(Database.layer(config))))
        const { claimed, read, scans } = yield* Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`insert into organizations (id, name, created_at) values ('org_slow', 'Slow', now()), ('org_b', 'B', now())`
          const insertProcessing = (organization: string, prefix: string, count: number, leaseUntil: string) =>
            Effect.zipRight(
              sql.unsafe(`insert into payments (id, organization_id, livemode, status, amount, amount_captured, amount_refunded,
                  currency, provider, payment_method, metadata, capture, created_at, updated_at, lease_until)
                select '${prefix}' || n, '${organization}', false, 'processing', 1000, 0, 0, 'EUR', 'sandbox_a',
                  '{"type":"card","token":"tok_visa"}', '{}', true, now() - interval '10 minutes', now() - interval '10 minutes', ${leaseUntil}
                from generate_series(1, ${count}) as n`),
              sql.unsafe(`insert into payment_attempts (id, payment_id, position, provider, status, created_at, latency_ms)
                select 'att_${prefix}' || n, '${prefix}' || n, 0, 'sandbox_a', 'unknown', now() - interval '10 minutes', 30000
                from generate_series(1, ${count}) as n`)
            )
          // The slow connection's payments were each looked at, and wait for their next look, in a minute.
          yield* insertProcessing("org_slow", "pay_slow_", BACKLOG, "now() + interval '1 minute'")
          yield* insertProcessing("org_b", "pay_b_", 1, "null")
          yield* sql`analyze`
          const repository = yield* PaymentsRepository
          const now = yield* DateTime.now
          const claim = repository.claimDue(
            { _tag: "Unanswered", sentBefore: DateTime.subtract(now, { seconds: 5 }), callTimeout: Duration.seconds(30) },
            { now, until: DateTime.add(now, { minutes: 2 }), limit: 8 }
          )
          return yield* sql.withTransaction(Effect.gen(function*() {
            const before = yield* rowsReadSoFar
            const claimed = yield* claim
            const read = (yield* rowsReadSoFar) - before
            const scans = yield* sequentialScansOf(
              "payments",
              PaymentsRepositorySql,
              Effect.flatMap(PaymentsRepository, (again) =>
                again.claimDue(
                  { _tag: "Unanswered", sentBefore: DateTime.subtract(now, { seconds: 5 }), callTimeout: Duration.seconds(30) },
                  { now, until: DateTime.add(now, { minutes: 2 }), limit: 8 }
                ))
            )
            return { claimed, read, scans }
          }))
        }).pipe(Effect.provide(context))

        expect(claimed.map(({ item }) => item.paymentId)).toEqual(["pay_b_1"])
        expect(read).toBeLessThan(100)
        expect(scans).toBe(0)
      }).pipe(Effect.scoped),
    180_000
  )
})
