import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { WebhookDeliveriesRepository } from "@orchestrator/core"
import { durableTestDatabases } from "@orchestrator/testing"
import { DateTime, Effect, Layer } from "effect"
import * as Database from "../src/Database.js"
import { WebhookDeliveriesRepositorySql } from "../src/webhooks/WebhookDeliveriesRepositorySql.js"

const postgres = durableTestDatabases().find((database) => database.name === "postgres")

const HISTORY = 5_000
const BACKLOG = 5_000

/**
 * A tenant with a long history of dispatched events, then a backlog of events of distinct payments,
 * each fanned out to one endpoint: pending deliveries, all stamped due at the same moment, as one
 * fan-out stamps its batch.
 */
const seedBacklog = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`insert into organizations (id, name, created_at) values ('org_busy', 'Busy', now())`
  yield* sql`insert into webhook_endpoints (id, organization_id, livemode, url, enabled_events, status, secret_sealed,
    created_at, updated_at)
    values ('we_busy', 'org_busy', false, 'https://merchant.test/hooks', '["*"]', 'active', 'sealed', now(), now())`
  yield* sql`insert into events (id, organization_id, livemode, type, api_version, data, created_at, dispatched_at)
    select 'evt_old_' || lpad(n::text, 6, '0'), 'org_busy', false, 'payment.succeeded', '2026-11-01',
      jsonb_build_object('object', jsonb_build_object('id', 'pay_old_' || n)),
      now() - interval '1 day' + n * interval '1 millisecond', now()
    from generate_series(1, ${HISTORY}::int) as n`
  yield* sql`insert into events (id, organization_id, livemode, type, api_version, data, created_at, dispatched_at)
    select 'evt_new_' || lpad(n::text, 6, '0'), 'org_busy', false, 'payment.succeeded', '2026-11-01',
      jsonb_build_object('object', jsonb_build_object('id', 'pay_new_' || n)),
      now() - interval '1 minute' + n * interval '1 millisecond', now()
    from generate_series(1, ${BACKLOG}::int) as n`
  yield* sql`analyze webhook_deliveries`
  yield* sql`insert into webhook_deliveries (id, organization_id, livemode, event_id, endpoint_id, type, status,
      attempt_count, next_attempt_at, payload, created_at, updated_at, object_id, event_created_at)
    select 'whev_' || md5(e.id), 'org_busy', false, e.id, 'we_busy', e.type, 'pending', 0,
      now() - interval '1 second', '{}', now(), now(), e.data->'object'->>'id', e.created_at
    from events e where e.id like 'evt_new_%'`
  // Statistics from before the backlog, as autovacuum leaves them for up to a minute after a fan-out.
  yield* sql`analyze events`
})

/** Rows and pages of every table and index read so far by the current transaction. */
const readSoFar = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ rows: string; blocks: string }>`select
      (select coalesce(sum(seq_tup_read + coalesce(idx_tup_fetch, 0)), 0) from pg_stat_xact_user_tables)::text as rows,
      (select coalesce(sum(pg_stat_get_xact_blocks_fetched(c.oid)), 0) from pg_class c
        join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public')::text as blocks`.pipe(
    Effect.map(([row]) => ({ rows: Number(row!.rows), blocks: Number(row!.blocks) }))
  ))

describe.skipIf(postgres === undefined)("the webhook deliveries' claim on PostgreSQL", () => {
  it.live(
    `takes a batch of a ${BACKLOG}-delivery backlog reading about that batch, not the backlog nor the tenant's ${HISTORY} earlier events`,
    () =>
      Effect.gen(function*() {
        const config = yield* postgres!.create
        const context = yield* Layer.build(WebhookDeliveriesRepositorySql.pipe(Layer.provideMerge(Database.layer(config))))
        yield* seedBacklog.pipe(Effect.provide(context))
        const { after, before, claimed, oldest } = yield* Effect.gen(function*() {
          const client = yield* SqlClient.SqlClient
          const repository = yield* WebhookDeliveriesRepository
          return yield* client.withTransaction(Effect.gen(function*() {
            const before = yield* readSoFar
            const now = yield* DateTime.now
            // A share that lets one endpoint take the whole batch: the endpoint's default (2) would hide the batch's cost.
            const claimed = yield* repository.claimDue({
              now,
              until: DateTime.add(now, { seconds: 30 }),
              limit: 8,
              share: { perTenant: 16, perLane: 8 }
            })
            const after = yield* readSoFar
            const oldest = yield* client<{ id: string }>`select id from webhook_deliveries order by next_attempt_at, id limit 8`
            return { before, claimed, after, oldest: oldest.map(({ id }) => id) }
          }))
        }).pipe(Effect.provide(context))

        // A whole batch (no delivery of the backlog is held back by another's object), the oldest due first.
        expect(claimed.map(({ item }) => item.deliveryId)).toEqual(oldest)
        expect(oldest).toHaveLength(8)
        // Reading every due delivery (to sort them) or every earlier event of the tenant (to see whether
        // one of the object's is still undispatched) reads thousands of rows: the bench's backlog then
        // drained at 8 a second.
        expect(after.rows - before.rows).toBeLessThan(100)
        // Pages: the walk over lanes, the counts of what is in flight and the claim's writes to the
        // lane and in-flight indexes come on top of the batch's own (about 320 in all, not thousands).
        expect(after.blocks - before.blocks).toBeLessThan(400)
      }).pipe(Effect.scoped),
    120_000
  )
})
