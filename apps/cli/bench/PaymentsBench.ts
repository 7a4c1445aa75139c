/**
 * `pnpm bench`: the latency and throughput of `POST /v1/payments` (sandbox PSP, Idempotency-Key,
 * full persistence) through the real HTTP server. PGlite by default, PostgreSQL with DATABASE_URL.
 * It measures and prints; nothing here is a test.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { KeyMaterial } from "@orchestrator/core/tenancy/KeyMaterial"
import { Organizations } from "@orchestrator/core/tenancy/Organizations"
import { applicationLayer, sqlStorage } from "@orchestrator/application/Application"
import { HttpRoutesLive } from "@orchestrator/http/HttpRoutes"
import * as Database from "@orchestrator/sql/Database"
import { Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import { createServer } from "node:http"

const PORT = Number(process.env.BENCH_PORT ?? 3999)
const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 300)
const CONCURRENT = Number(process.env.BENCH_CONCURRENT ?? 1000)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16)

const database: Database.DatabaseConfig = process.env.DATABASE_URL
  ? { _tag: "Postgres", url: Redacted.make(process.env.DATABASE_URL) }
  : { _tag: "Embedded", dataDir: undefined }

const server = HttpRoutesLive.pipe(
  Layer.provide(NodeHttpServer.layer(createServer, { port: PORT })),
  Layer.provideMerge(applicationLayer({
    storage: sqlStorage(Database.layer(database)),
    keys: KeyMaterial.fromMasterSecret(new Uint8Array(32).fill(9)),
    publicUrl: `http://127.0.0.1:${PORT}`
  }))
)

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

const createPayment = async (secret: string, key: string) => {
  const started = performance.now()
  const response = await fetch(`http://127.0.0.1:${PORT}/v1/payments`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "idempotency-key": key, "content-type": "application/json" },
    body: JSON.stringify({ amount: 1234, currency: "EUR", payment_method: { type: "card", token: "tok_visa" } })
  })
  await response.text()
  if (response.status !== 201) throw new Error(`unexpected status ${response.status}`)
  return performance.now() - started
}

const report = (label: string, latencies: ReadonlyArray<number>, seconds: number) => {
  if (latencies.length === 0) return
  const sorted = [...latencies].sort((a, b) => a - b)
  console.log(
    `${label}: ${latencies.length} payments in ${seconds.toFixed(2)} s = ${(latencies.length / seconds).toFixed(0)} payments/s; ` +
      `latency p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p95 ${percentile(sorted, 0.95).toFixed(1)} ms, ` +
      `p99 ${percentile(sorted, 0.99).toFixed(1)} ms`
  )
}

const bench = Effect.gen(function*() {
  const organizations = yield* Organizations
  const organization = yield* organizations.create(`Bench ${Date.now()}`)
  const { secret } = yield* organizations.createKey(organization.id, false)
  console.log(`POST /v1/payments on ${Database.describe(database)}, Node ${process.version}`)
  yield* Effect.promise(async () => {
    for (let i = 0; i < 20; i++) await createPayment(secret, `warmup-${i}`)

    const sequential: Array<number> = []
    let started = performance.now()
    for (let i = 0; i < SEQUENTIAL; i++) sequential.push(await createPayment(secret, `seq-${i}`))
    report("one at a time", sequential, (performance.now() - started) / 1000)

    const concurrent: Array<number> = []
    let next = 0
    started = performance.now()
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < CONCURRENT) concurrent.push(await createPayment(secret, `con-${next++}`))
    }))
    report(`${CONCURRENCY} concurrent clients`, concurrent, (performance.now() - started) / 1000)
  })
})

Effect.runPromise(
  bench.pipe(Effect.provide(server), Effect.scoped, Logger.withMinimumLogLevel(LogLevel.Warning))
).then(() => process.exit(0), (error) => {
  console.error(error)
  process.exit(1)
})
