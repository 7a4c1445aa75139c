import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { applicationLayer, sqlStorage } from "@orchestrator/application"
import {
  type Currency,
  Jobs,
  KeyMaterial,
  Organizations,
  type Payment,
  Payments,
  ProviderConnection,
  ProviderConnectionsRepository,
  type Tenant,
  WebhookDeliveries,
  WebhookEndpoints
} from "@orchestrator/core"
import { Database } from "@orchestrator/sql"
import { durableTestDatabases } from "@orchestrator/testing"
import { Chunk, Clock, Context, DateTime, Effect, Fiber, Layer, Logger, LogLevel, Option, TestClock } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"

/**
 * The two starvations of issue 34, on PostgreSQL, with two organizations and the worker's own jobs:
 * organization A's hostile load (a slow PSP connection, receivers that never answer) must not hold
 * up organization B's reconciliation or webhooks. Time is Effect's TestClock: A's slow calls and
 * hanging attempts stay in flight for as long as the test looks, and B's bound is counted in
 * passes of the job, not in seconds of a machine's speed.
 */
const postgres = durableTestDatabases().find((database) => database.name === "postgres")

/** One worker process: the application over its own pool to the test's database. */
const workerOn = (config: Database.DatabaseConfig) =>
  Layer.build(
    applicationLayer({
      storage: sqlStorage(Database.layer(config)),
      keys: KeyMaterial.fromMasterSecret(new Uint8Array(32).fill(34)),
      publicUrl: "http://orchestrator.test",
      // The receivers listen on this machine.
      privateAddresses: "allow"
    }).pipe(Layer.provide(Logger.minimumLogLevel(LogLevel.Error)))
  )

const jobOf = (context: Context.Context<Jobs>, name: string) => Context.get(context, Jobs).find((job) => job.name === name)!.run

const organization = (name: string) =>
  Effect.map(Effect.flatMap(Organizations, (organizations) => organizations.create(name)), (created): Tenant => ({
    organizationId: created.id,
    livemode: false
  }))

/** Sets the sandbox connection's fault injection, as its merchant would. */
const setSandbox = (tenant: Tenant, settings: Record<string, unknown>) =>
  Effect.gen(function*() {
    const connections = yield* ProviderConnectionsRepository
    const connection = Option.getOrThrow(yield* connections.findByName(tenant, "sandbox_a"))
    yield* connections.update(tenant.organizationId, new ProviderConnection({ ...connection, settings }))
  })

const pay = (tenant: Tenant) =>
  Effect.flatMap(
    Payments,
    (payments) => payments.create(tenant, { amount: 2000, currency: "EUR" as Currency, payment_method: { type: "card", token: "tok_visa" } })
  )

/** Waits a turn of the event loop at a time (a guard of a few thousand turns, not a measure) until `holds`. */
const until = (holds: Effect.Effect<boolean>, turns = 3_000) =>
  Effect.gen(function*() {
    for (let turn = 0; turn < turns; turn++) {
      if (yield* holds) return true
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 5)))
    }
    return yield* holds
  })

/**
 * Waits (a real turn at a time, bounded) until `count` more sleeps end within `within` of now than
 * `before` did: calls that wait on the database first have set their deadlines, so that moving the
 * TestClock ends them (moved earlier, a deadline set after would never come).
 */
const untilSleeping = (before: number, count: number, within: number) =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const ending = Effect.map(TestClock.sleeps(), (sleeps) => Chunk.toReadonlyArray(sleeps).filter((at) => at <= now + within).length)
    for (let turn = 0; turn < 5_000 && (yield* ending) < before + count; turn++) {
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 2)))
    }
  })

const sleepsWithin = (within: number) =>
  Effect.flatMap(
    Clock.currentTimeMillis,
    (now) => Effect.map(TestClock.sleeps(), (sleeps) => Chunk.toReadonlyArray(sleeps).filter((at) => at <= now + within).length)
  )

/** A receiver that accepts every request and never answers it; how many it holds. */
const silentReceiver = Effect.acquireRelease(
  Effect.async<{ url: string; held: () => number; server: http.Server }>((resume) => {
    let held = 0
    const server = http.createServer((request) => {
      held++
      request.resume()
    })
    server.listen(
      0,
      "127.0.0.1",
      () => resume(Effect.succeed({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, held: () => held, server }))
    )
  }),
  ({ server }) =>
    Effect.async<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
)

/** A receiver that answers 200 at once, and the event types it was handed, in order. */
const healthyReceiver = Effect.acquireRelease(
  Effect.async<{ url: string; types: Array<string>; server: http.Server }>((resume) => {
    const types: Array<string> = []
    const server = http.createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        types.push(JSON.parse(Buffer.concat(chunks).toString("utf8")).type)
        response.writeHead(200).end()
      })
    })
    server.listen(0, "127.0.0.1", () => resume(Effect.succeed({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, types, server })))
  }),
  ({ server }) =>
    Effect.async<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
)

describe.skipIf(postgres === undefined)("no organization can slow another's background work (PostgreSQL, TestClock)", () => {
  it.effect(
    "A's 24 payments on a sandbox that answers a minute late hold 2 reconciliation calls; B's payment settles at its first look, 5 s after its call gave up",
    () =>
      Effect.gen(function*() {
        yield* TestClock.setTime(Date.parse("2026-06-01T12:00:00Z"))
        const worker = yield* workerOn(yield* postgres!.create)
        const { a, b, hostile, unknown } = yield* Effect.gen(function*() {
          const a = yield* organization("Slow PSP Merchant")
          const b = yield* organization("Ordinary Merchant")
          // Both PSPs answer a minute late: past the 30 s deadline, every payment is left unknown.
          yield* setSandbox(a, { latency_ms: 60_000 })
          yield* setSandbox(b, { latency_ms: 60_000 })
          const beforeA = yield* sleepsWithin(30_000)
          const hostileCalls = yield* Effect.fork(Effect.forEach(Array.from({ length: 24 }), () => pay(a), { concurrency: "unbounded" }))
          yield* untilSleeping(beforeA, 24, 30_000)
          yield* TestClock.adjust("1 second")
          const beforeB = yield* sleepsWithin(30_000)
          const ordinaryCall = yield* Effect.fork(pay(b))
          yield* untilSleeping(beforeB, 1, 30_000)
          yield* TestClock.adjust("30 seconds")
          const hostile: ReadonlyArray<Payment> = yield* Fiber.join(hostileCalls)
          const unknown: Payment = yield* Fiber.join(ordinaryCall)
          // B's PSP is back to answering at once; A's stays a minute late.
          yield* setSandbox(b, {})
          return { a, b, hostile, unknown }
        }).pipe(Effect.provide(worker))
        expect([...hostile, unknown].every((payment) => payment.status === "processing" && payment.attempts[0]!.status === "unknown")).toBe(true)

        // B's first schedule point: 5 s after its call gave up. A's payments have been due since.
        yield* TestClock.adjust("5 seconds")
        const statusOf = (tenant: Tenant, id: string) =>
          Effect.map(Effect.flatMap(Payments, (payments) => payments.retrieve(tenant, id)), (payment) => payment.status).pipe(
            Effect.provide(worker),
            Effect.orDie
          )
        const pass = yield* Effect.fork(jobOf(worker, "reconcile-payments"))
        // Within that one pass, with no time passing for A's calls (each holds its worker a minute):
        // B's payment is claimed beside them and settles.
        const settled = yield* until(Effect.map(statusOf(b, unknown.id), (status) => status === "succeeded"))
        expect(settled).toBe(true)
        expect(Option.isNone(yield* Fiber.poll(pass))).toBe(true)
        const stillProcessing = yield* Effect.forEach(hostile, (payment) => statusOf(a, payment.id))
        expect(stillProcessing.every((status) => status === "processing")).toBe(true)
        // A's slow connection holds 2 of the pass's 8 workers: the cap per connection.
        const inFlight = yield* Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const now = DateTime.formatIso(yield* DateTime.now)
          const rows = yield* sql<{ count: number }>`select count(*)::int as count from payments
            where organization_id = ${a.organizationId} and lease_token is not null and lease_until > ${now}::timestamptz`
          return rows[0]!.count
          // The storage's SQL client is in the worker's context, though the application's type does not name it.
        }).pipe(Effect.provide(worker as unknown as Context.Context<SqlClient.SqlClient>), Effect.orDie)
        expect(inFlight).toBe(2)
        yield* Fiber.interrupt(pass)
      }).pipe(Effect.scoped),
    120_000
  )

  it.effect(
    "A's 15 endpoints at receivers that never answer and 450 deliveries hold 2 workers each at most; B's webhooks arrive before any of A's attempts ends",
    () =>
      Effect.gen(function*() {
        yield* TestClock.setTime(Date.parse("2026-06-01T12:00:00Z"))
        const worker = yield* workerOn(yield* postgres!.create)
        const silent = yield* silentReceiver
        const healthy = yield* healthyReceiver
        const { a } = yield* Effect.gen(function*() {
          const a = yield* organization("Hanging Receivers")
          const b = yield* organization("Healthy Receiver")
          const endpoints = yield* WebhookEndpoints
          for (let i = 0; i < 15; i++) yield* endpoints.create(a, { url: `${silent.url}hook/${i}` })
          yield* endpoints.create(b, { url: healthy.url })
          for (let i = 0; i < 10; i++) yield* pay(a)
          // B's payment comes last: in one queue for everyone, its events would wait behind A's 450 deliveries.
          yield* TestClock.adjust("1 second")
          yield* pay(b)
          yield* jobOf(worker, "dispatch-events")
          return { a }
        }).pipe(Effect.provide(worker))
        const attemptedOfA = Effect.flatMap(WebhookDeliveries, (deliveries) =>
          Effect.map(
            deliveries.list(a, { status: "pending" }, { limit: 100, startingAfter: undefined }),
            (page) => page.data.filter((delivery) => delivery.attempt_count > 0).length
          )).pipe(Effect.provide(worker), Effect.orDie)

        const pass = yield* Effect.fork(jobOf(worker, "deliver-webhooks"))
        // B's three events arrive, in order, while every attempt to A's receivers is still held open:
        // none of them has ended (their 10 s has not passed on the TestClock, and the socket's own
        // 15 s deadline comes long after this guard gives up).
        const arrived = yield* until(Effect.sync(() => healthy.types.length === 3))
        expect(arrived).toBe(true)
        expect(healthy.types).toEqual(["payment.created", "payment.processing", "payment.succeeded"])
        expect(yield* attemptedOfA).toBe(0)
        // A holds at most its share of the workers: 2 attempts in flight per endpoint (30 of the 64).
        expect(silent.held()).toBeGreaterThan(0)
        expect(silent.held()).toBeLessThanOrEqual(2 * 15)
        yield* Fiber.interrupt(pass)
      }).pipe(Effect.scoped),
    120_000
  )
})
