/**
 * One round of the payment phases on a freshly started build: warm-up, the closed loop (with the
 * CPU its processes spend per payment), one payment at a time, the open loop at half the closed
 * loop's rate, idempotent replays, and the vaulted card against the PSP token. `pnpm bench --against`
 * runs rounds of both builds in turn.
 */
import * as os from "node:os"
import { freePort, RunningService } from "./BenchService.js"
import { CONNECTIONS, log, PHASE_SECONDS, SEQUENTIAL, VAULTED_PAIRS, VAULTED_SLICE_SECONDS, WARM_UP_SECONDS } from "./BenchSettings.js"
import { PAYMENT, type Target } from "./BenchTarget.js"
import { closedLoop, openLoop, sequential } from "./LoadGenerator.js"
import { vaultedAgainstToken } from "./VaultedPhase.js"

export interface PaymentRound {
  readonly payments_per_s: number
  readonly cpu_ms_per_payment: number | null
  readonly worker_cpu_ms_per_payment: number | null
  /**
   * The same closed loop paying with a card the service's vault holds (`pm_…`), and the PSP token's
   * figure in the slices it alternated with; null for a build without a vault.
   */
  readonly vaulted_cpu_ms_per_payment: number | null
  readonly vaulted_paired_token_cpu_ms: number | null
  readonly p50_ms: number
  readonly p95_ms: number
  readonly p99_ms: number
  readonly open_loop_rate: number
  readonly sequential_p50_ms: number
  readonly replay_per_s: number
  /** RSS of the serving process started and idle (2 s after it answered its readiness probe). */
  readonly idle_rss_mb: number
  /** Peak RSS of the service's processes over the round. */
  readonly rss_mb: number
  /** The machine's 1-minute load average as the closed loop began: the figures are of a shared machine. */
  readonly load_average: number
}

/** POST /v1/payments under `connections` connections for `seconds`, each request with a fresh key. */
export const paymentsLoad = (target: Target, service: RunningService, seconds: number, prefix: string, body = PAYMENT) =>
  closedLoop({
    url: `${service.url}/v1/payments`,
    method: "POST",
    headers: target.headers,
    body,
    connections: CONNECTIONS,
    seconds,
    keyPrefix: prefix
  })

export const paymentRound = async (target: Target): Promise<PaymentRound> => {
  const service = await RunningService.start(target.env, target.roles, await freePort(), {}, {}, target.bundle)
  try {
    const payments = `${service.url}/v1/payments`
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    const idleRss = service.rssMb(target.roles[0]!)
    log(`${target.commit}: warm-up`)
    // Long enough for V8 to have compiled the hot path: after 3 s the closed loop still measured a
    // process warming up (the crowded phase later, on a warm process, ran 30-40 % faster).
    await paymentsLoad(target, service, WARM_UP_SECONDS, "warm")

    log(`${target.commit}: POST /v1/payments, closed loop, ${CONNECTIONS} connections`)
    const servingRole = target.roles[0]!
    const loadAverage = os.loadavg()[0]!
    const cpuBefore = { serving: service.cpuMs(servingRole), worker: service.cpuMs("worker") }
    const closed = await paymentsLoad(target, service, PHASE_SECONDS, "closed")
    const perPayment = (ms: number) => (closed.completed > 0 ? ms / closed.completed : null)
    const cpu = {
      serving: perPayment(service.cpuMs(servingRole) - cpuBefore.serving),
      worker: target.url === undefined ? null : perPayment(service.cpuMs("worker") - cpuBefore.worker)
    }
    if (closed.non2xx > 0 || closed.errors > 0) throw new Error(`payments failed under load: ${JSON.stringify(closed)}`)

    log(`${target.commit}: one payment at a time`)
    const createOne = async () => {
      const response = await fetch(payments, {
        method: "POST",
        headers: { ...target.headers, "idempotency-key": `seq-${Date.now()}-${Math.random()}` },
        body: PAYMENT
      })
      await response.arrayBuffer()
      return response.status
    }
    const oneAtATime = await sequential(SEQUENTIAL, createOne)

    const rate = Math.max(1, Math.floor(closed.requestsPerSecond / 2))
    log(`${target.commit}: open loop at ${rate} payments/s (half the closed-loop figure)`)
    const open = await openLoop({ url: payments, headers: target.headers, body: PAYMENT, rate, seconds: PHASE_SECONDS, keyPrefix: "open" })

    log(`${target.commit}: idempotent replays`)
    const replayKey = `replay-${Date.now()}`
    await fetch(payments, { method: "POST", headers: { ...target.headers, "idempotency-key": replayKey }, body: PAYMENT })
    const replays = await closedLoop({
      url: payments,
      method: "POST",
      headers: { ...target.headers, "idempotency-key": replayKey },
      body: PAYMENT,
      connections: CONNECTIONS,
      seconds: PHASE_SECONDS
    })
    // Last: a build without a vault skips it, so the latency phases above follow the same load in both builds.
    const vaulted = await vaultedAgainstToken(target, service, {
      seconds: VAULTED_SLICE_SECONDS,
      pairs: VAULTED_PAIRS,
      rate: Math.max(1, Math.floor(closed.requestsPerSecond / 2))
    })
    return {
      payments_per_s: closed.requestsPerSecond,
      cpu_ms_per_payment: cpu.serving,
      worker_cpu_ms_per_payment: cpu.worker,
      vaulted_cpu_ms_per_payment: vaulted?.vaulted_cpu_ms ?? null,
      vaulted_paired_token_cpu_ms: vaulted?.token_cpu_ms ?? null,
      p50_ms: open.p50,
      p95_ms: open.p95,
      p99_ms: open.p99,
      open_loop_rate: rate,
      sequential_p50_ms: oneAtATime.p50,
      replay_per_s: replays.requestsPerSecond,
      idle_rss_mb: idleRss,
      rss_mb: service.peakRssMb,
      load_average: loadAverage
    }
  } finally {
    await service.stop()
  }
}

/** The rounds of one build as one: the mean of each figure, the peak of memory. */
export const combineRounds = (rounds: ReadonlyArray<PaymentRound>): PaymentRound => {
  const mean = (pick: (round: PaymentRound) => number | null) => {
    const values = rounds.map(pick).filter((value): value is number => value !== null)
    return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length
  }
  return {
    payments_per_s: mean((round) => round.payments_per_s)!,
    cpu_ms_per_payment: mean((round) => round.cpu_ms_per_payment),
    worker_cpu_ms_per_payment: mean((round) => round.worker_cpu_ms_per_payment),
    vaulted_cpu_ms_per_payment: mean((round) => round.vaulted_cpu_ms_per_payment),
    vaulted_paired_token_cpu_ms: mean((round) => round.vaulted_paired_token_cpu_ms),
    p50_ms: mean((round) => round.p50_ms)!,
    p95_ms: mean((round) => round.p95_ms)!,
    p99_ms: mean((round) => round.p99_ms)!,
    open_loop_rate: mean((round) => round.open_loop_rate)!,
    sequential_p50_ms: mean((round) => round.sequential_p50_ms)!,
    replay_per_s: mean((round) => round.replay_per_s)!,
    idle_rss_mb: mean((round) => round.idle_rss_mb)!,
    rss_mb: Math.max(...rounds.map((round) => round.rss_mb)),
    load_average: mean((round) => round.load_average)!
  }
}
