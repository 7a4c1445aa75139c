/**
 * The phases run once per build: statements and round trips counted on the wire, then with
 * `STORED` payments in its database the list and the payments beside them, a backlog of webhook
 * deliveries drained, and the HTTP shell on two processes.
 */
import { startCountingReceiver } from "../support/CountingReceiver.js"

type CountingReceiver = Awaited<ReturnType<typeof startCountingReceiver>>
import { freePort, RunningService } from "./BenchService.js"
import { BACKLOG, CONNECTIONS, COUNTED, log, PHASE_SECONDS, QUICK, STORED, WARM_UP_SECONDS } from "./BenchSettings.js"
import { PAYMENT, type Target } from "./BenchTarget.js"
import { closedLoop, sequential } from "./LoadGenerator.js"
import { paymentsLoad } from "./PaymentPhases.js"
import { seedEvents, seedPayments } from "./Seeding.js"
import { startWireCounter } from "./WireCounter.js"

const start = async (target: Target, extra: Partial<Record<"http" | "all", Record<string, string>>> = {}) =>
  RunningService.start({ ...target.env, ...extra.all }, target.roles, await freePort(), extra.http ? { http: extra.http } : {}, {}, target.bundle)

/** Statements and round trips per payment, on PostgreSQL only (null on the embedded database). */
export const countOnTheWire = async (target: Target) => {
  if (target.url === undefined) return null
  log(`${target.commit}: statements and round trips per payment, counted on the wire (a phase of its own: the relay costs CPU)`)
  const upstream = new URL(target.url)
  const relay = await startWireCounter({ host: upstream.hostname, port: Number(upstream.port || 5432) })
  const relayed = Object.assign(new URL(target.url), { hostname: "127.0.0.1", port: String(relay.port) })
  relayed.searchParams.set("sslmode", "disable")
  try {
    const service = await start(target, { http: { DATABASE_URL: relayed.toString() } })
    try {
      // A number of payments, each answered, not a duration: the counts are of whole payments.
      const countedLoad = (amount: number, prefix: string) =>
        closedLoop({
          url: `${service.url}/v1/payments`,
          method: "POST",
          headers: target.headers,
          body: PAYMENT,
          connections: CONNECTIONS,
          seconds: 0,
          amount,
          keyPrefix: prefix
        })
      await countedLoad(CONNECTIONS * 2, "warm-counted")
      relay.reset()
      const counted = await countedLoad(COUNTED, "counted")
      return counted.completed === 0 ? null : {
        statements: relay.counts.statements / counted.completed,
        roundTrips: relay.counts.roundTrips / counted.completed
      }
    } finally {
      await service.stop()
    }
  } finally {
    relay.close()
  }
}

export interface StoredFigures {
  readonly list_p50_ms: number
  readonly list_p99_ms: number
  readonly payments_per_s_at_1m: number
  readonly deliveries_per_s: number
  /** Connections the receiver accepted over the drain: keep-alive to the endpoint, or a socket per delivery. */
  readonly delivery_connections: number
  readonly lost: number
  readonly duplicated: number
  readonly rss_mb: number
}

/** The list and payments beside `STORED`, then the receiver's endpoint registered for the drain. */
const listAndPay = async (target: Target, receiverUrl: string) => {
  const service = await start(target)
  try {
    log(`${target.commit}: GET /v1/payments with ${STORED} stored`)
    const listPage = async () => {
      const response = await fetch(`${service.url}/v1/payments?limit=20`, { headers: target.headers })
      await response.arrayBuffer()
      return response.status
    }
    // The service was just started: warmed up first, as before the empty-table figures.
    await sequential(100, listPage)
    const listed = await sequential(QUICK ? 300 : 1000, listPage)
    log(`${target.commit}: POST /v1/payments with ${STORED} stored`)
    await paymentsLoad(target, service, WARM_UP_SECONDS, "warm-crowded")
    const crowded = await paymentsLoad(target, service, PHASE_SECONDS, "crowded")
    const example = ((await (await fetch(`${service.url}/v1/payments?limit=1`, { headers: target.headers })).json()) as {
      data: Array<unknown>
    }).data[0]
    await fetch(`${service.url}/v1/webhooks/endpoints`, {
      method: "POST",
      headers: target.headers,
      body: JSON.stringify({ url: receiverUrl, enabled_events: ["payment.succeeded"] })
    })
    return { listed, crowded, example, rss: service.peakRssMb }
  } finally {
    await service.stop()
  }
}

const drainBacklog = async (target: Target, receiver: CountingReceiver, example: unknown) => {
  log(`${target.commit}: webhook deliveries: a backlog of ${BACKLOG} events`)
  await seedEvents(target.database, target.organizationId, BACKLOG, example)
  const drainStarted = Date.now()
  const connectionsBefore = receiver.connections()
  const service = await start(target)
  try {
    const seeded = () => [...receiver.counts.keys()].filter((id) => id.startsWith("evt_seed_")).length
    const deadline = Date.now() + 20 * 60_000
    while (seeded() < BACKLOG && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250))
    const drainSeconds = (Date.now() - drainStarted) / 1000
    // Whatever arrives twice arrives within a lease or two: wait a little before counting.
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    const duplicated = [...receiver.counts.entries()].filter(([id, count]) => id.startsWith("evt_seed_") && count > 1).length
    return {
      deliveriesPerSecond: BACKLOG / drainSeconds,
      connections: receiver.connections() - connectionsBefore,
      lost: BACKLOG - seeded(),
      duplicated,
      rss: service.peakRssMb
    }
  } finally {
    await service.stop()
  }
}

export const storedPhases = async (target: Target): Promise<StoredFigures> => {
  log(`${target.commit}: storing ${STORED} payments by SQL`)
  await seedPayments(target.database, target.organizationId, STORED)
  const receiver = await startCountingReceiver()
  try {
    const { crowded, example, listed, rss } = await listAndPay(target, receiver.url)
    const drained = await drainBacklog(target, receiver, example)
    return {
      list_p50_ms: listed.p50,
      list_p99_ms: listed.p99,
      payments_per_s_at_1m: crowded.requestsPerSecond,
      deliveries_per_s: drained.deliveriesPerSecond,
      delivery_connections: drained.connections,
      lost: drained.lost,
      duplicated: drained.duplicated,
      rss_mb: Math.max(rss, drained.rss)
    }
  } finally {
    receiver.close()
  }
}

/** Payments per second with the HTTP shell on 2 processes (PostgreSQL only). */
export const twoProcesses = async (target: Target) => {
  if (target.url === undefined) return null
  log(`${target.commit}: POST /v1/payments with the HTTP shell on 2 processes`)
  const service = await start(target, { all: { ORCHESTRATOR_HTTP_PROCESSES: "2" } })
  try {
    return (await paymentsLoad(target, service, PHASE_SECONDS, "two")).requestsPerSecond
  } finally {
    await service.stop()
  }
}
