import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { durableTestDatabases } from "@orchestrator/testing"
import { Effect, Layer } from "effect"
import * as Database from "../src/Database.js"
import { MAX_PREPARED_PER_CONNECTION } from "../src/PreparedStatements.js"

const postgres = durableTestDatabases().find((database) => database.name === "postgres")

/** The statements this session (connection) has prepared whose text contains `marker`. */
const preparedHere = (marker: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly count: number }>`select count(*)::int as count from pg_prepared_statements
      where statement like ${`%${marker}%`} and statement not like '%pg_prepared_statements%'`.pipe(
      Effect.map((rows) => rows[0]!.count)
    ))

const withDatabase = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.scoped(Effect.gen(function*() {
    const config = yield* postgres!.create
    const context = yield* Layer.build(Database.layer(config))
    return yield* Effect.provide(effect, context)
  }))

describe.skipIf(postgres === undefined)("statements prepared once per connection (PostgreSQL)", () => {
  it.live("a parameterised statement is parsed once per connection and answers each run with its own values", () =>
    withDatabase(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // One transaction: one connection throughout.
      const seen = yield* sql.withTransaction(Effect.gen(function*() {
        const answers: Array<number> = []
        for (let n = 0; n < 5; n++) {
          const [row] = yield* sql<{ readonly doubled: number }>`select ${n}::int * 2 as doubled /* twice */`
          answers.push(row!.doubled)
        }
        return { answers, prepared: yield* preparedHere("twice"), unparameterised: yield* preparedHere("no parameters") }
      }))
      expect(seen.answers).toEqual([0, 2, 4, 6, 8])
      expect(seen.prepared).toBe(1)
      const unparameterised = yield* sql.withTransaction(
        Effect.zipRight(sql`select 1 as one /* no parameters */`, preparedHere("no parameters"))
      )
      expect(unparameterised).toBe(0)
    })))

  it.live("a statement whose result changed after a migration is prepared again, and answers with the new columns", () =>
    withDatabase(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`create table widgets (id text primary key, name text not null)`
      yield* sql`insert into widgets values ('w1', 'first')`
      const read = sql<Record<string, unknown>>`select * from widgets where id = ${"w1"}`
      // Prepared on every connection these runs use (the pool hands back the one just released).
      for (let n = 0; n < 3; n++) expect(yield* read).toEqual([{ id: "w1", name: "first" }])
      yield* sql`alter table widgets add column colour text not null default 'blue'`
      expect(yield* read).toEqual([{ id: "w1", name: "first", colour: "blue" }])
      // Inside a transaction the refusal ends the transaction (it is aborted); the next run is prepared anew.
      yield* sql`alter table widgets add column size integer not null default 3`
      const inTransaction = yield* Effect.either(sql.withTransaction(read))
      const after = yield* read
      expect(after).toEqual([{ id: "w1", name: "first", colour: "blue", size: 3 }])
      if (inTransaction._tag === "Right") expect(inTransaction.right).toEqual(after)
    })))

  it.live(`past ${MAX_PREPARED_PER_CONNECTION} statements on one connection, further texts still run, unprepared`, () =>
    withDatabase(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const texts = MAX_PREPARED_PER_CONNECTION + 20
      const outcome = yield* sql.withTransaction(Effect.gen(function*() {
        let sum = 0
        for (let n = 0; n < texts; n++) {
          const [row] = yield* sql.unsafe<{ readonly value: number }>(`select $1::int + ${n} as value /* distinct */`, [1])
          sum += row!.value
        }
        const [all] = yield* sql<{ readonly count: number }>`select count(*)::int as count from pg_prepared_statements`
        return { sum, prepared: all!.count }
      }))
      expect(outcome.sum).toBe(texts + (texts * (texts - 1)) / 2)
      expect(outcome.prepared).toBe(MAX_PREPARED_PER_CONNECTION)
    })))
})
