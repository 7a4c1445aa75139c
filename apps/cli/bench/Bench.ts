/**
 * `pnpm bench`: what the service costs, measured side by side with the limits of the same machine
 * in the same run (shared machines drift, ratios much less). PostgreSQL with `DATABASE_URL` (a
 * database of its own is made beside it), the embedded database without; the sandbox PSP at zero
 * latency. `BENCH_QUICK=1` runs every step with smaller counts in a few minutes.
 *
 * `pnpm bench --against REF` builds REF (a commit or tag) in a scratch worktree and runs both builds
 * in one run, on the same database server (a database each) and the same load from this build's
 * generators: the payment phases in alternate rounds (this, REF, this, REF; `BENCH_ROUNDS`), the
 * others once each in turn. It prints each figure side by side with the ratio this ÷ REF.
 */
import { Database } from "@orchestrator/sql"
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import * as os from "node:os"
import { type Figures, report, reportSideBySide } from "./BenchReport.js"
import { buildService, defaultBundle } from "./BenchService.js"
import { BACKLOG, CONNECTIONS, log, PHASE_SECONDS, QUICK, round, ROUNDS, STORED } from "./BenchSettings.js"
import { prepareTarget, sandboxConnectionId, type Target } from "./BenchTarget.js"
import { measureDatabaseLimit } from "./DatabaseLimit.js"
import { type HttpFloor, measureHttpFloor } from "./HttpFloor.js"
import { combineRounds, type PaymentRound, paymentRound } from "./PaymentPhases.js"
import { measurePgbenchLimit } from "./PgbenchLimit.js"
import { buildRef } from "./RefBuild.js"
import { countOnTheWire, type StoredFigures, storedPhases, twoProcesses } from "./StoredPhases.js"

/** `--against REF` or `--against=REF`. */
const againstArgument = (): string | undefined => {
  const args = process.argv.slice(2)
  const at = args.findIndex((arg) => arg === "--against" || arg.startsWith("--against="))
  if (at === -1) return undefined
  const ref = args[at]!.includes("=") ? args[at]!.slice("--against=".length) : args[at + 1]
  if (ref === undefined || ref === "" || ref.startsWith("--")) throw new Error("--against needs a commit or a tag")
  return ref
}

interface Limits {
  readonly dbLimit: number
  readonly pgbench: number | null
  readonly driver: number
}

interface Measured {
  readonly payments: PaymentRound
  readonly rounds: ReadonlyArray<PaymentRound>
  readonly wire: { readonly statements: number; readonly roundTrips: number } | null
  readonly stored: StoredFigures
  readonly twoProcesses: number | null
}

const figuresOf = (target: Target, limits: Limits, floor: HttpFloor, measured: Measured): Figures => {
  const { payments, stored, wire } = measured
  const cpu = payments.cpu_ms_per_payment
  const floorCpu = floor.cpuMsPerRequest
  return {
    database: Database.describe(target.database).replace(/ at .*/, ""),
    payments_per_s: round(payments.payments_per_s),
    db_limit_tps: round(limits.dbLimit),
    db_limit_by: limits.pgbench === null ? "driver (no pgbench on the embedded database)" : "pgbench",
    ratio_to_db_limit: round(payments.payments_per_s / limits.dbLimit, 3),
    driver_limit_tps: round(limits.driver),
    cpu_ms_per_payment: cpu === null ? null : round(cpu, 2),
    floor_cpu_ms_per_request: floorCpu === null ? null : round(floorCpu, 4),
    // The issue's target: at most 25 (a payment costs at most 25 empty requests' CPU).
    cpu_per_payment_in_floor_requests: cpu === null || floorCpu === null || floorCpu === 0 ? null : round(cpu / floorCpu, 1),
    worker_cpu_ms_per_payment: payments.worker_cpu_ms_per_payment === null ? null : round(payments.worker_cpu_ms_per_payment, 2),
    vaulted_cpu_ms_per_payment: payments.vaulted_cpu_ms_per_payment === null ? null : round(payments.vaulted_cpu_ms_per_payment, 2),
    // The vault issue's target: a vaulted card costs at most 0.5 ms more than a PSP token (in the slices it alternated with).
    vaulted_extra_cpu_ms: payments.vaulted_cpu_ms_per_payment === null || payments.vaulted_paired_token_cpu_ms === null
      ? null
      : round(payments.vaulted_cpu_ms_per_payment - payments.vaulted_paired_token_cpu_ms, 2),
    statements_per_payment: wire === null ? null : round(wire.statements, 2),
    round_trips_per_payment: wire === null ? null : round(wire.roundTrips, 2),
    p50_ms: round(payments.p50_ms),
    p95_ms: round(payments.p95_ms),
    p99_ms: round(payments.p99_ms),
    open_loop_rate: Math.round(payments.open_loop_rate),
    sequential_p50_ms: round(payments.sequential_p50_ms),
    http_floor_rps: round(floor.requestsPerSecond),
    replay_per_s: round(payments.replay_per_s),
    list_p50_ms: round(stored.list_p50_ms),
    list_p99_ms: round(stored.list_p99_ms),
    stored_payments: STORED,
    payments_per_s_at_1m: round(stored.payments_per_s_at_1m),
    deliveries_per_s: round(stored.deliveries_per_s),
    backlog: BACKLOG,
    delivery_connections: stored.delivery_connections,
    lost: stored.lost,
    duplicated: stored.duplicated,
    idle_rss_mb: round(payments.idle_rss_mb),
    rss_mb: round(Math.max(payments.rss_mb, stored.rss_mb)),
    processes: 1,
    payments_per_s_2_processes: measured.twoProcesses === null ? null : round(measured.twoProcesses),
    load_average: round(payments.load_average, 2),
    cpu: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "unknown"}`,
    commit: target.commit,
    quick: QUICK ? 1 : 0,
    rounds: measured.rounds.length
  }
}

/** The database's limits, measured once, on this build's database (pgbench replays this build's writes). */
const measureLimits = async (target: Target): Promise<Limits> => {
  log("driver limit: the reference transaction, replayed through the service's driver and pool")
  const driver = await Effect.runPromise(
    measureDatabaseLimit({ database: target.database, organizationId: target.organizationId, concurrency: CONNECTIONS, seconds: PHASE_SECONDS })
  )
  let pgbench: number | null = null
  if (target.url !== undefined) {
    log(`database limit: pgbench replaying one payment's writes, ${CONNECTIONS} clients`)
    pgbench = await measurePgbenchLimit({
      url: target.url,
      organizationId: target.organizationId,
      connectionId: sandboxConnectionId(target),
      clients: CONNECTIONS,
      seconds: PHASE_SECONDS
    })
  }
  return { driver, pgbench, dbLimit: pgbench ?? driver }
}

/** `phase` on each build, one after the other (never two builds at once: they would share the CPU). */
const inTurn = async <A>(targets: ReadonlyArray<Target>, phase: (target: Target) => Promise<A>) => {
  const results: Array<A> = []
  for (const target of targets) results.push(await phase(target))
  return results
}

const measure = async (targets: ReadonlyArray<Target>) => {
  const wires = await inTurn(targets, countOnTheWire)
  const rounds = targets.map((): Array<PaymentRound> => [])
  const count = targets.length > 1 ? ROUNDS : 1
  for (let at = 0; at < count; at++) {
    for (const [index, target] of targets.entries()) {
      if (targets.length > 1) log(`round ${at + 1} of ${count}: ${target.commit}`)
      rounds[index]!.push(await paymentRound(target))
    }
  }
  log("HTTP floor: a bare node:http JSON endpoint")
  const floor = await measureHttpFloor(CONNECTIONS, PHASE_SECONDS)
  const stored = await inTurn(targets, storedPhases)
  const two = await inTurn(targets, twoProcesses)
  return {
    floor,
    measured: targets.map((_, index): Measured => ({
      payments: combineRounds(rounds[index]!),
      rounds: rounds[index]!,
      wire: wires[index]!,
      stored: stored[index]!,
      twoProcesses: two[index]!
    }))
  }
}

const main = async () => {
  const against = againstArgument()
  const stamp = Date.now()
  log(`${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}${QUICK ? ", quick" : ""}`)
  log("building the service (pnpm build)")
  buildService()
  const ref = against === undefined ? undefined : buildRef(against, log)
  const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim()
  const targets: Array<Target> = []
  try {
    targets.push(prepareTarget({ commit, bundle: defaultBundle(), name: `bench_${stamp}` }))
    if (ref !== undefined) targets.push(prepareTarget({ commit: ref.commit, bundle: ref.bundle, name: `bench_${stamp}_against` }))
    log(`${Database.describe(targets[0]!.database)}${ref === undefined ? "" : `, against ${against} (${ref.commit})`}`)
    const limits = await measureLimits(targets[0]!)
    const { floor, measured } = await measure(targets)
    const figures = targets.map((target, index) => figuresOf(target, limits, floor, measured[index]!))
    if (ref === undefined) return report(figures[0]!)
    reportSideBySide(figures[0]!, figures[1]!, { rounds: { this: measured[0]!.rounds, against: measured[1]!.rounds } })
    // The spread between rounds says how far a ratio above can be trusted on a machine this busy.
    for (const [index, target] of targets.entries()) {
      const each = measured[index]!.rounds.map((one) => `${round(one.payments_per_s)}/s at ${round(one.cpu_ms_per_payment ?? 0, 2)} ms`)
      log(`${target.commit}, round by round: ${each.join(", ")}`)
    }
  } finally {
    for (const target of targets) target.remove()
  }
}

main().then(() => process.exit(0), (error) => {
  console.error(error)
  process.exit(1)
})
