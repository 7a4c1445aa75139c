import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { fairPick, type FairRow, type FairShare, type LaneKey } from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing"
import { DateTime, Effect, Layer } from "effect"
import fc from "fast-check"
import { laneCursor } from "../src/shared/FairClaims.js"
import { claimLeased } from "../src/shared/LeasedClaims.js"

/**
 * The fair claim of the SQL store against its memory twin (`fairPick`), on a table of its own: the
 * same rows, leases and caps give the same claims, claim after claim, and the same next lane.
 */

const NOW = DateTime.unsafeMake("2026-06-01T12:00:00Z")
const later = (seconds: number) => DateTime.add(NOW, { seconds })

interface Item {
  readonly id: string
  readonly organization: string
  readonly livemode: boolean
  readonly lane: string
  readonly waiting: boolean
  readonly due: boolean
  readonly seq: number
  /** none; in flight (leased, unexpired); held (finished, waiting out its lease); expired. */
  readonly lease: "none" | "inFlight" | "held" | "expired"
}

const createTable = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
    drop table if exists fair_items;
    create table fair_items (
      id text primary key, organization_id text not null, livemode boolean not null, lane text not null,
      waiting boolean not null, due boolean not null, seq integer not null,
      lease_until timestamptz, lease_token text);
    create index fair_items_waiting on fair_items (organization_id collate "C", livemode, lane collate "C", seq) where waiting;
    create index fair_items_in_flight on fair_items (organization_id collate "C", livemode, lane collate "C") where lease_token is not null;
  `).unprepared)

const insert = (items: ReadonlyArray<Item>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.forEach(items, (item) => {
      const until = item.lease === "none" ? null : DateTime.formatIso(item.lease === "expired" ? later(-5) : later(60))
      const token = item.lease === "inFlight" || item.lease === "expired" ? "tok" : null
      return sql`insert into fair_items values (${item.id}, ${item.organization}, ${item.livemode}, ${item.lane},
        ${item.waiting}, ${item.due}, ${item.seq}, ${until}::timestamptz, ${token})`
    }, { discard: true }))

const claimSql = (cursor: ReturnType<typeof laneCursor>, share: FairShare, limit: number, byLane: boolean) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    claimLeased<{ id: string }, string>(sql, {
      table: "fair_items",
      due: sql`due`,
      order: sql`seq`,
      returning: sql`id`,
      lease: { now: NOW, until: later(30), limit, share },
      item: (row) => row.id,
      fair: { ...(byLane ? { lanes: ["lane"] } : {}), waiting: sql`waiting`, share, cursor }
    }))

/** The memory twin over the same items, keeping its leases as the claims take them. */
const memoryModel = (items: ReadonlyArray<Item>, byLane: boolean) => {
  const leases = new Map<string, { until: DateTime.Utc; token: string | null }>(
    items.flatMap((item) =>
      item.lease === "none"
        ? []
        : [[item.id, { until: item.lease === "expired" ? later(-5) : later(60), token: item.lease === "held" ? null : "tok" }] as const]
    )
  )
  let cursor: LaneKey | null = null
  const rows: ReadonlyArray<FairRow<string>> = [...items].sort((a, b) => a.seq - b.seq).map((item) => ({
    id: item.id,
    lane: byLane ? [item.organization, item.livemode, item.lane] : [item.organization, item.livemode],
    waiting: item.waiting,
    due: item.due,
    item: item.id
  }))
  return {
    cursor: () => cursor,
    claim: (share: FairShare, limit: number) => {
      const picked = fairPick(rows, {
        limit,
        cursor,
        share,
        free: (id) => {
          const held = leases.get(id)
          return held === undefined || !DateTime.greaterThan(held.until, NOW)
        },
        inFlight: (id) => {
          const held = leases.get(id)
          return held !== undefined && held.token !== null && DateTime.greaterThan(held.until, NOW)
        }
      })
      cursor = picked.cursor
      for (const row of picked.picked) leases.set(row.id, { until: later(30), token: "new" })
      return picked.picked.map((row) => row.id)
    }
  }
}

const itemArbitrary = fc.record({
  organization: fc.constantFrom("org_A", "org_B", "org_a", "org_C"),
  livemode: fc.boolean(),
  lane: fc.constantFrom("conn_1", "conn_2", "Conn_3"),
  waiting: fc.constantFrom(true, true, true, true, true, false),
  due: fc.constantFrom(true, true, true, false),
  lease: fc.constantFrom("none", "none", "none", "inFlight", "held", "expired") as fc.Arbitrary<Item["lease"]>
})

const scenarioArbitrary = fc.record({
  items: fc.array(itemArbitrary, { maxLength: 40 }).map((items) => items.map((item, i) => ({ ...item, id: `it_${i}`, seq: (i * 7919) % 101 }))),
  byLane: fc.boolean(),
  claims: fc.array(fc.record({ perTenant: fc.integer({ min: 1, max: 5 }), perLane: fc.integer({ min: 1, max: 3 }), limit: fc.integer({ min: 1, max: 8 }) }), {
    minLength: 1,
    maxLength: 4
  })
})

for (const database of testDatabases()) {
  describe(`the fair claim on ${database.name}`, () => {
    it.effect("takes the same rows as its memory twin, claim after claim, whatever the rows, leases and caps", () =>
      Effect.gen(function*() {
        const context = yield* Layer.build(database.layer)
        const run = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) => Effect.runPromise(Effect.provide(effect, context))
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(scenarioArbitrary, async ({ byLane, claims, items }) => {
              await run(Effect.zipRight(createTable, insert(items)))
              const model = memoryModel(items, byLane)
              const cursor = laneCursor()
              for (const { limit, perLane, perTenant } of claims) {
                const share = { perTenant, perLane }
                const fromSql = (await run(claimSql(cursor, share, limit, byLane))).map(({ item }) => item)
                const fromMemory = model.claim(share, limit)
                expect([...fromSql].sort()).toEqual([...fromMemory].sort())
                expect(cursor.value).toEqual(model.cursor())
              }
            }),
            { numRuns: Number(process.env.FAIR_RUNS ?? (database.name === "pglite" ? 60 : 100)) }
          )
        )
      }).pipe(Effect.scoped), 120_000)
  })
}
