/**
 * `pnpm bench`: what the service costs, measured side by side with the limits of the same machine
 * in the same run (shared machines drift, ratios much less). PostgreSQL with `DATABASE_URL` (a
 * database of its own is made beside it), the embedded database without; the sandbox PSP at zero
 * latency. `BENCH_QUICK=1` runs every step with smaller counts in a few minutes.
 */
import { Database } from "@orchestrator/sql"
import { Effect, Redacted } from "effect"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { startCountingReceiver } from "../support/CountingReceiver.js"
import { type Figures, report } from "./BenchReport.js"
import { buildService, cli, type Env, freePort, RunningService } from "./BenchService.js"
import { measureDatabaseLimit } from "./DatabaseLimit.js"
import { measureHttpFloor } from "./HttpFloor.js"
import { closedLoop, openLoop, sequential } from "./LoadGenerator.js"
import { measurePgbenchLimit } from "./PgbenchLimit.js"
import { seedEvents, seedPayments } from "./Seeding.js"
import { startWireCounter } from "./WireCounter.js"

const QUICK = process.env.BENCH_QUICK === "1"
const PHASE_SECONDS = QUICK ? 5 : 15
const WARM_UP_SECONDS = QUICK ? 8 : 10
const CONNECTIONS = 32
const SEQUENTIAL = QUICK ? 100 : 300
const STORED = QUICK ? 100_000 : 1_000_000
const BACKLOG = QUICK ? 10_000 : 100_000
const COUNTED = QUICK ? 320 : 1_600

const log = (line: string) => console.log(`[bench] ${line}`)
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits

const main = async () => {
  const postgresUrl = process.env.DATABASE_URL
  const name = `bench_${Date.now()}`
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "orchestrator-bench-"))
  const adminUrl = postgresUrl === undefined ? undefined : Object.assign(new URL(postgresUrl), { pathname: "/postgres" }).toString()
  const benchUrl = postgresUrl === undefined ? undefined : Object.assign(new URL(postgresUrl), { pathname: `/${name}` }).toString()
  if (adminUrl !== undefined) execFileSync("psql", [adminUrl, "-X", "-qc", `create database "${name}"`])
  const database: Database.DatabaseConfig = benchUrl === undefined
    ? { _tag: "Embedded", dataDir: path.join(dataDir, "postgres") }
    : { _tag: "Postgres", url: Redacted.make(benchUrl) }
  const env: Env = {
    ORCHESTRATOR_DATA_DIR: dataDir,
    ORCHESTRATOR_ENCRYPTION_KEY: "b3".repeat(32),
    LOG_LEVEL: "warn",
    ORCHESTRATOR_RATE_LIMIT_TEST: "1000000",
    // The webhook receiver of the delivery phase listens on this machine (PostgreSQL denies that by default).
    ORCHESTRATOR_EGRESS_PRIVATE_ADDRESSES: "allow",
    ...(benchUrl === undefined ? {} : { DATABASE_URL: benchUrl })
  }
  const roles = benchUrl === undefined ? ["start" as const] : ["http" as const, "worker" as const]
  const figures: Figures = {}
  let service: RunningService | undefined
  try {
    log(`${Database.describe(database)}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}${QUICK ? ", quick" : ""}`)
    log("building the service (pnpm build)")
    buildService()
    cli(env, "migrate")
    const organizationId = /Created organization (org_\w+)/.exec(cli(env, "org", "create", "--name", name))![1]!
    const secret = /: (sk_test_\w+)/.exec(cli(env, "keys", "create", "--org", organizationId))![1]!
    const headers = { authorization: `Bearer ${secret}`, "content-type": "application/json" }
    const payment = JSON.stringify({ amount: 1234, currency: "EUR", payment_method: { type: "card", token: "tok_visa" } })

    log("driver limit: the reference transaction, replayed through the service's driver and pool")
    const driverLimit = await Effect.runPromise(
      measureDatabaseLimit({ database, organizationId, concurrency: CONNECTIONS, seconds: PHASE_SECONDS })
    )
    let pgbenchLimit: number | null = null
    if (benchUrl !== undefined) {
      log(`database limit: pgbench replaying one payment's writes, ${CONNECTIONS} clients`)
      const connectionId = execFileSync("psql", [
        benchUrl,
        "-X",
        "-Atc",
        `select id from provider_connections
        where organization_id = '${organizationId}' and not livemode and name = 'sandbox_a'`
      ], { encoding: "utf8" }).trim()
      pgbenchLimit = await measurePgbenchLimit({ url: benchUrl, organizationId, connectionId, clients: CONNECTIONS, seconds: PHASE_SECONDS })
    }
    const dbLimit = pgbenchLimit ?? driverLimit

    const port = await freePort()
    const payments = `http://127.0.0.1:${port}/v1/payments`
    const paymentsLoad = (seconds: number, prefix: string) =>
      closedLoop({ url: payments, method: "POST", headers, body: payment, connections: CONNECTIONS, seconds, keyPrefix: prefix })

    let wire: { statements: number; roundTrips: number } | null = null
    if (benchUrl !== undefined) {
      log("statements and round trips per payment, counted on the wire (a phase of its own: the relay costs CPU)")
      const target = new URL(benchUrl)
      const relay = await startWireCounter({ host: target.hostname, port: Number(target.port || 5432) })
      const relayed = Object.assign(new URL(benchUrl), { hostname: "127.0.0.1", port: String(relay.port) })
      relayed.searchParams.set("sslmode", "disable")
      try {
        service = await RunningService.start(env, roles, port, { http: { DATABASE_URL: relayed.toString() } })
        // A number of payments, each answered, not a duration: the counts are of whole payments.
        const countedLoad = (amount: number, prefix: string) =>
          closedLoop({ url: payments, method: "POST", headers, body: payment, connections: CONNECTIONS, seconds: 0, amount, keyPrefix: prefix })
        await countedLoad(CONNECTIONS * 2, "warm-counted")
        relay.reset()
        const counted = await countedLoad(COUNTED, "counted")
        if (counted.completed > 0) {
          wire = { statements: relay.counts.statements / counted.completed, roundTrips: relay.counts.roundTrips / counted.completed }
        }
        await service.stop()
        service = undefined
      } finally {
        relay.close()
      }
    }

    service = await RunningService.start(env, roles, port)
    log("warm-up")
    // Long enough for V8 to have compiled the hot path: after 3 s the closed loop still measured a
    // process warming up (the crowded phase later, on a warm process, ran 30-40 % faster).
    await paymentsLoad(WARM_UP_SECONDS, "warm")

    log(`POST /v1/payments, closed loop, ${CONNECTIONS} connections`)
    const servingRole = roles[0]!
    const loadAverage = os.loadavg()[0]!
    const cpuBefore = { serving: service.cpuMs(servingRole), worker: service.cpuMs("worker") }
    const closed = await paymentsLoad(PHASE_SECONDS, "closed")
    const perPayment = (ms: number) => (closed.completed > 0 ? ms / closed.completed : null)
    const cpu = {
      serving: perPayment(service.cpuMs(servingRole) - cpuBefore.serving),
      worker: benchUrl === undefined ? null : perPayment(service.cpuMs("worker") - cpuBefore.worker)
    }
    if (closed.non2xx > 0 || closed.errors > 0) throw new Error(`payments failed under load: ${JSON.stringify(closed)}`)

    log("one payment at a time")
    const createOne = async () => {
      const response = await fetch(payments, {
        method: "POST",
        headers: { ...headers, "idempotency-key": `seq-${Date.now()}-${Math.random()}` },
        body: payment
      })
      await response.arrayBuffer()
      return response.status
    }
    const oneAtATime = await sequential(SEQUENTIAL, createOne)

    const rate = Math.max(1, Math.floor(closed.requestsPerSecond / 2))
    log(`open loop at ${rate} payments/s (half the closed-loop figure)`)
    const open = await openLoop({ url: payments, headers, body: payment, rate, seconds: PHASE_SECONDS, keyPrefix: "open" })

    log("idempotent replays")
    const replayKey = `replay-${Date.now()}`
    await fetch(payments, { method: "POST", headers: { ...headers, "idempotency-key": replayKey }, body: payment })
    const replays = await closedLoop({
      url: payments,
      method: "POST",
      headers: { ...headers, "idempotency-key": replayKey },
      body: payment,
      connections: CONNECTIONS,
      seconds: PHASE_SECONDS
    })
    const rssUnderLoad = service.peakRssMb
    await service.stop()
    service = undefined

    log("HTTP floor: a bare node:http JSON endpoint")
    const floor = await measureHttpFloor(CONNECTIONS, PHASE_SECONDS)

    log(`storing ${STORED} payments by SQL`)
    await seedPayments(database, organizationId, STORED)
    service = await RunningService.start(env, roles, port)
    log(`GET /v1/payments with ${STORED} stored`)
    const listPage = async () => {
      const response = await fetch(`${payments}?limit=20`, { headers })
      await response.arrayBuffer()
      return response.status
    }
    // The service was just restarted: warmed up first, as before the empty-table figures.
    await sequential(100, listPage)
    const listed = await sequential(QUICK ? 300 : 1000, listPage)
    log(`POST /v1/payments with ${STORED} stored`)
    await paymentsLoad(WARM_UP_SECONDS, "warm-crowded")
    const crowded = await paymentsLoad(PHASE_SECONDS, "crowded")

    log(`webhook deliveries: a backlog of ${BACKLOG} events`)
    const receiver = await startCountingReceiver()
    await fetch(`${service.url}/v1/webhooks/endpoints`, {
      method: "POST",
      headers,
      body: JSON.stringify({ url: receiver.url, enabled_events: ["payment.succeeded"] })
    })
    const example = ((await (await fetch(`${payments}?limit=1`, { headers })).json()) as { data: Array<unknown> }).data[0]
    await service.stop()
    service = undefined
    await seedEvents(database, organizationId, BACKLOG, example)
    const drainStarted = Date.now()
    service = await RunningService.start(env, roles, port)
    const seeded = () => [...receiver.counts.keys()].filter((id) => id.startsWith("evt_seed_")).length
    const deadline = Date.now() + 20 * 60_000
    while (seeded() < BACKLOG && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250))
    const drainSeconds = (Date.now() - drainStarted) / 1000
    // Whatever arrives twice arrives within a lease or two: wait a little before counting.
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    const duplicated = [...receiver.counts.entries()].filter(([id, count]) => id.startsWith("evt_seed_") && count > 1).length
    const lost = BACKLOG - seeded()
    receiver.close()
    const rss = Math.max(rssUnderLoad, service.peakRssMb)
    await service.stop()
    service = undefined

    let twoProcesses: number | null = null
    if (benchUrl !== undefined) {
      log("POST /v1/payments with the HTTP shell on 2 processes")
      service = await RunningService.start({ ...env, ORCHESTRATOR_HTTP_PROCESSES: "2" }, roles, port)
      twoProcesses = (await paymentsLoad(PHASE_SECONDS, "two")).requestsPerSecond
      await service.stop()
      service = undefined
    }

    Object.assign(figures, {
      database: Database.describe(database).replace(/ at .*/, ""),
      payments_per_s: round(closed.requestsPerSecond),
      db_limit_tps: round(dbLimit),
      db_limit_by: pgbenchLimit === null ? "driver (no pgbench on the embedded database)" : "pgbench",
      ratio_to_db_limit: round(closed.requestsPerSecond / dbLimit, 3),
      driver_limit_tps: round(driverLimit),
      cpu_ms_per_payment: cpu.serving === null ? null : round(cpu.serving, 2),
      worker_cpu_ms_per_payment: cpu.worker === null ? null : round(cpu.worker, 2),
      statements_per_payment: wire === null ? null : round(wire.statements, 2),
      round_trips_per_payment: wire === null ? null : round(wire.roundTrips, 2),
      p50_ms: round(open.p50),
      p95_ms: round(open.p95),
      p99_ms: round(open.p99),
      open_loop_rate: rate,
      sequential_p50_ms: round(oneAtATime.p50),
      http_floor_rps: round(floor),
      replay_per_s: round(replays.requestsPerSecond),
      list_p50_ms: round(listed.p50),
      list_p99_ms: round(listed.p99),
      stored_payments: STORED,
      payments_per_s_at_1m: round(crowded.requestsPerSecond),
      deliveries_per_s: round(BACKLOG / drainSeconds),
      backlog: BACKLOG,
      lost,
      duplicated,
      rss_mb: round(rss),
      processes: 1,
      payments_per_s_2_processes: twoProcesses === null ? null : round(twoProcesses),
      // The machine's 1-minute load average as the closed loop began: the figures are of a shared machine.
      load_average: round(loadAverage, 2),
      cpu: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "unknown"}`,
      commit: execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim(),
      quick: QUICK ? 1 : 0
    })
    report(figures)
  } finally {
    await service?.stop()
    if (adminUrl !== undefined) execFileSync("psql", [adminUrl, "-X", "-qc", `drop database if exists "${name}" with (force)`])
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

main().then(() => process.exit(0), (error) => {
  console.error(error)
  process.exit(1)
})
