import { describe, expect, it } from "@effect/vitest"
import { applicationLayer, sqlStorage } from "@orchestrator/application"
import {
  type Currency,
  EventLog,
  Jobs,
  KeyMaterial,
  Organizations,
  Payment,
  Payments,
  Transactions,
  WebhookDeliveries,
  WebhookEndpoints
} from "@orchestrator/core"
import { Database } from "@orchestrator/sql"
import { durableTestDatabases } from "@orchestrator/testing"
import { Context, Effect, Layer, Logger, LogLevel } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"

const postgres = durableTestDatabases().find((database) => database.name === "postgres")

/** A receiver that answers 200 and counts every delivery id it is handed. */
const countingReceiver = Effect.acquireRelease(
  Effect.async<{ url: string; counts: Map<string, number>; server: http.Server }>((resume) => {
    const counts = new Map<string, number>()
    const server = http.createServer((request, response) => {
      request.resume()
      request.on("end", () => {
        const id = String(request.headers["service-delivery-id"])
        counts.set(id, (counts.get(id) ?? 0) + 1)
        response.writeHead(200).end()
      })
    })
    server.listen(0, "127.0.0.1", () => {
      resume(Effect.succeed({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, counts, server }))
    })
  }),
  ({ server }) =>
    Effect.async<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
)

/** One worker process: the application over its own connection pool to the shared database. */
const workerProcess = (config: Database.DatabaseConfig) =>
  Layer.build(
    applicationLayer({
      storage: sqlStorage(Database.layer(config)),
      keys: KeyMaterial.fromMasterSecret(new Uint8Array(32).fill(8)),
      publicUrl: "http://orchestrator.test",
      // The receiver listens on this machine.
      privateAddresses: "allow"
    }).pipe(Layer.provide(Logger.minimumLogLevel(LogLevel.Warning)))
  )

const jobOf = (context: Context.Context<Jobs>, name: string) => Context.get(context, Jobs).find((job) => job.name === name)!.run

describe.skipIf(postgres === undefined)("webhook delivery by several workers on PostgreSQL", () => {
  it.live("two workers over 1 000 due deliveries deliver each exactly once", () =>
    Effect.gen(function*() {
      const config = yield* postgres!.create
      const receiver = yield* countingReceiver
      const first = yield* workerProcess(config)
      const second = yield* workerProcess(config)

      // 1 000 events for one endpoint, fanned out into 1 000 due deliveries: about a thousand payments,
      // as one object's events go out one after the other.
      const tenant = yield* Effect.gen(function*() {
        const organization = yield* (yield* Organizations).create("Busy Merchant")
        const tenant = { organizationId: organization.id, livemode: false }
        yield* (yield* WebhookEndpoints).create(tenant, { url: receiver.url })
        const payment = yield* (yield* Payments).create(tenant, {
          amount: 100,
          currency: "EUR" as Currency,
          payment_method: { type: "card", token: "tok_visa" }
        })
        const events = yield* EventLog
        yield* (yield* Transactions).run(
          Effect.forEach(Array.from({ length: 997 }), (_, n) =>
            events.record(tenant, { type: "payment.succeeded", object: new Payment({ ...payment, id: `${payment.id}_${n}` }) }), {
            discard: true
          })
        )
        yield* jobOf(first, "dispatch-events")
        return tenant
      }).pipe(Effect.provide(first))

      // Each worker runs its passes as the worker does, one after the other, until nothing is left: a
      // pass that finds the endpoint's 2 attempts in flight all taken by the other ends, the next goes on.
      const passes = (context: Context.Context<Jobs>) =>
        Effect.gen(function*() {
          let handled = 0
          while (receiver.counts.size < 1000) {
            handled += yield* jobOf(context, "deliver-webhooks")
          }
          return handled
        })
      const handled = yield* Effect.all([passes(first), passes(second)], { concurrency: 2 })
      expect(handled[0] + handled[1]).toBe(1000)
      expect(handled[0]).toBeGreaterThan(0)
      expect(handled[1]).toBeGreaterThan(0)
      expect(receiver.counts.size).toBe(1000)
      expect([...receiver.counts.values()].every((count) =>
        count === 1
      )).toBe(true)
      const page = yield* Effect.flatMap(WebhookDeliveries, (deliveries) =>
        deliveries.list(tenant, { status: "pending" }, { limit: 10, startingAfter: undefined })).pipe(
          Effect.provide(second)
        )
      expect(page.data).toEqual([])
    }).pipe(Effect.scoped), 120_000)
})
