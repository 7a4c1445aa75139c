import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { durableTestDatabases } from "@orchestrator/testing"
import { Context, Effect, Layer } from "effect"
import * as Database from "../src/Database.js"

const postgres = durableTestDatabases().find((database) => database.name === "postgres")

describe.skipIf(postgres === undefined)("the service's PostgreSQL sessions", () => {
  it.live("run without JIT on every pooled connection: a costly plan is not compiled before it runs", () =>
    Effect.scoped(Effect.gen(function*() {
      const config = yield* postgres!.create
      const sql = Context.get(yield* Layer.build(Database.layer(config)), SqlClient.SqlClient)
      // Four transactions at once hold four connections of the pool, each asked for its setting.
      const seen = yield* Effect.all(
        Array.from({ length: 4 }, () =>
          sql.withTransaction(Effect.zip(
            sql<{ readonly jit: string }>`show jit`,
            sql<{ readonly pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.05)`
          ))),
        { concurrency: "unbounded" }
      )
      expect(new Set(seen.map(([, [row]]) => row!.pid)).size).toBe(4)
      expect(seen.map(([[row]]) => row!.jit)).toEqual(["off", "off", "off", "off"])
      // A plan past jit_above_cost (planned, not run), as a claim on a large backlog is estimated, plans no JIT.
      const plan = yield* sql<{ readonly "QUERY PLAN": string }>`explain
        select count(*) from generate_series(1, 100000000) a cross join generate_series(1, 100) b where a % 7 = b`
      const text = plan.map((row) => row["QUERY PLAN"]).join("\n")
      expect(Number(/cost=[0-9.]+\.\.([0-9.]+)/.exec(text)![1])).toBeGreaterThan(100_000)
      expect(text).not.toContain("JIT:")
    })))
})
