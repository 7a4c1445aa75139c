import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Database } from "@orchestrator/sql"
import { durableTestDatabases } from "@orchestrator/testing"
import { Effect, Exit, Layer, Scope } from "effect"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

/** How long the sandbox PSP takes to answer: the payments are still running when the server is told to stop. */
const PSP_LATENCY_MS = 1500
const PAYMENTS = 4

describe("shutdown with clients that already left", () => {
  for (const database of durableTestDatabases()) {
    it.live(`on ${database.name}: running payments finish before the pool closes, and none answers 500`, () =>
      Effect.gen(function*() {
        const config = yield* database.create
        const logs: Array<string> = []
        const scope = yield* Scope.make()
        const server = yield* Layer.buildWithScope(serverLayer(Database.layer(config), { logs }), scope)
        const { baseUrl, secret, tenant } = yield* Effect.provide(merchant(), server)
        const call = (path: string, body?: unknown) =>
          raw(`${baseUrl}${path}`, {
            method: body === undefined ? "GET" : "POST",
            headers: json(secret, body === undefined ? undefined : newKey()),
            ...(body === undefined ? {} : { body: JSON.stringify(body) })
          })
        const connected = yield* call("/v1/provider-connections", {
          name: "slow_psp",
          type: "sandbox",
          settings: { latency_ms: PSP_LATENCY_MS }
        })
        expect(connected.status).toBe(201)

        // Clients that give up on their payment while the PSP is still answering.
        const clients = Array.from({ length: PAYMENTS }, () => new AbortController())
        const requests = clients.map((client) =>
          fetch(`${baseUrl}/v1/payments`, {
            method: "POST",
            headers: json(secret, newKey()),
            body: JSON.stringify(paymentWith("tok_visa", { provider: "slow_psp" })),
            signal: client.signal
          }).then(() => "answered", () => "aborted")
        )
        // Every payment is written and sent to the PSP before the clients leave.
        while (((yield* call("/v1/payments?limit=100")).json.data as Array<unknown>).length < PAYMENTS) {
          yield* Effect.sleep("20 millis")
        }
        for (const client of clients) client.abort()
        expect(yield* Effect.promise(() => Promise.all(requests))).toEqual(Array(PAYMENTS).fill("aborted"))

        // SIGTERM: the server's scope closes while the handlers are still waiting for the PSP.
        yield* Scope.close(scope, Exit.void)

        // The payments' handlers ran to the end: each settled with the PSP's answer, none left for reconciliation.
        const rows = yield* Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          return yield* sql<{ status: string }>`select status from payments where organization_id = ${tenant.organizationId}`
        }).pipe(Effect.provide(Database.layer(config)), Effect.orDie)
        expect(rows.map((row) => row.status)).toEqual(Array(PAYMENTS).fill("succeeded"))
        const failures = logs.filter((line) =>
          /POST \/v1\/payments 5\d\d /.test(line) || line.includes("failed\\n") || line.includes("Cannot use a pool") ||
          line.includes("database is unavailable")
        )
        expect(failures).toEqual([])
        expect(logs.some((line) => line.includes("waiting for"))).toBe(true)
      }).pipe(Effect.scoped), 60_000)
  }
})
