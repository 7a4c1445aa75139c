/**
 * `pnpm bench:fairness`: how long organization B waits for its reconciliation and its webhooks, alone
 * and while organization A's hostile load runs (issue 34's two findings), on the built `http` and
 * `worker` processes over PostgreSQL (`DATABASE_URL`; a database of its own is made beside it). A has
 * a sandbox connection answering a minute late with `HOSTILE_PAYMENTS` payments on it (24), and 15
 * endpoints at a receiver that accepts and never answers, with `HOSTILE_EVENTS_PAYMENTS` payments (10,
 * 450 deliveries). B's payment is left `processing` by its PSP's late answer and measured from its
 * `201` to `succeeded`; B's webhook from its payment's `201` to its `payment.succeeded` at B's receiver.
 * `PROBE_SKIP_BUILD=1` reuses the last `pnpm build`; `BENCH_BUNDLE` runs another build.
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { buildService, cli, freePort, migratedMerchant, RunningService, scratchService } from "./BenchService.js"

const HOSTILE_PAYMENTS = Number(process.env.HOSTILE_PAYMENTS ?? 24)
const HOSTILE_EVENTS_PAYMENTS = Number(process.env.HOSTILE_EVENTS_PAYMENTS ?? 10)
const ROUNDS = Number(process.env.ROUNDS ?? 3)
/** How long B's payment or webhook is waited for before it counts as starved. */
const GIVE_UP_SECONDS = Number(process.env.GIVE_UP_SECONDS ?? 300)

const log = (line: string) => console.log(`[fairness] ${line}`)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** B's receiver: when each payment's `payment.succeeded` arrived. */
const startTimingReceiver = () =>
  new Promise<{ url: string; arrivals: Map<string, number>; close: () => void }>((resolve) => {
    const arrivals = new Map<string, number>()
    const server = http.createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const event = JSON.parse(Buffer.concat(chunks).toString("utf8"))
        if (event.type === "payment.succeeded") arrivals.set(event.data.object.id, Date.now())
        response.writeHead(200).end()
      })
    })
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        arrivals,
        close: () => {
          server.closeAllConnections()
          server.close()
        }
      }))
  })

/** A's receivers: accept every request, never answer. */
const startSilentReceiver = () =>
  new Promise<{ url: string; held: () => number; close: () => void }>((resolve) => {
    let held = 0
    const server = http.createServer((request) => {
      held++
      request.resume()
    })
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
        held: () => held,
        close: () => {
          server.closeAllConnections()
          server.close()
        }
      }))
  })

const api = (baseUrl: string, secret: string) => async (path: string, init: { method?: string; body?: unknown; key?: string } = {}) => {
  const response = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: {
      authorization: `Bearer ${secret}`,
      "content-type": "application/json",
      ...(init.key === undefined ? {} : { "idempotency-key": init.key })
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
  })
  return { status: response.status, json: await response.json() as any }
}

type Call = ReturnType<typeof api>

let keys = 0
const payOn = (call: Call, provider: string) =>
  call("/v1/payments", {
    key: `fairness-${Date.now()}-${++keys}`,
    body: { amount: 2000, currency: "EUR", payment_method: { type: "card", token: "tok_visa" }, provider }
  })

const setLatency = async (call: Call, name: string, latency: number) => {
  const connections = await call("/v1/provider-connections")
  const id = connections.json.data.find((connection: { name: string }) => connection.name === name).id
  const answered = await call(`/v1/provider-connections/${id}`, { method: "PATCH", body: { settings: { latency_ms: latency } } })
  if (answered.status !== 200) throw new Error(`setting ${name}'s latency answered ${answered.status}`)
}

/** Seconds until `done` holds, polled every 100 ms; `undefined` past the give-up time. */
const secondsUntil = async (from: number, done: () => Promise<boolean> | boolean) => {
  while (Date.now() - from < GIVE_UP_SECONDS * 1000) {
    if (await done()) return (Date.now() - from) / 1000
    await sleep(100)
  }
  return undefined
}

/**
 * B's two waits: a payment left `processing` by its PSP's late answer (the PSP then answers at once
 * again), from its `201` to `succeeded`; and a payment's `payment.succeeded`, from its `201` to B's receiver.
 */
const measureB = async (call: Call, receiver: Awaited<ReturnType<typeof startTimingReceiver>>) => {
  await setLatency(call, "sandbox_a", 60_000)
  const late = await payOn(call, "sandbox_a")
  const answeredAt = Date.now()
  if (late.json.status !== "processing") throw new Error(`B's payment is ${late.json.status}, not processing`)
  await setLatency(call, "sandbox_a", 0)
  const reconciled = await secondsUntil(answeredAt, async () => (await call(`/v1/payments/${late.json.id}`)).json.status === "succeeded")
  const webhooks: Array<number | undefined> = []
  for (let round = 0; round < ROUNDS; round++) {
    const paid = await payOn(call, "sandbox_b")
    const at = Date.now()
    webhooks.push(await secondsUntil(at, () => receiver.arrivals.has(paid.json.id)))
  }
  return { reconciled, webhooks }
}

const show = (seconds: number | undefined) => seconds === undefined ? `not within ${GIVE_UP_SECONDS} s` : `${seconds.toFixed(1)} s`

const main = async () => {
  const scratch = scratchService("pnpm bench:fairness", "fairness", { ORCHESTRATOR_EGRESS_PRIVATE_ADDRESSES: "allow" })
  const timing = await startTimingReceiver()
  const silent = await startSilentReceiver()
  let service: RunningService | undefined
  try {
    if (process.env.PROBE_SKIP_BUILD !== "1") buildService()
    const a = migratedMerchant(scratch.env, "Hostile A")
    const bOrganization = /Created organization (org_\w+)/.exec(cli(scratch.env, "org", "create", "--name", "Ordinary B"))![1]!
    const bSecret = /: (sk_test_\w+)/.exec(cli(scratch.env, "keys", "create", "--org", bOrganization))![1]!
    service = await RunningService.start(scratch.env, ["http", "worker"], await freePort())
    const callA = api(service.url, a.secret)
    const callB = api(service.url, bSecret)
    await callB("/v1/webhooks/endpoints", { body: { url: timing.url, enabled_events: ["payment.succeeded"] } })

    log("B alone")
    const alone = await measureB(callB, timing)
    log(`B alone: reconciled ${show(alone.reconciled)} after its 201; webhooks ${alone.webhooks.map(show).join(", ")}`)

    log(`A's hostile load: ${HOSTILE_PAYMENTS} payments on a sandbox a minute late, 15 silent endpoints and ${HOSTILE_EVENTS_PAYMENTS} payments`)
    await setLatency(callA, "sandbox_a", 60_000)
    const slow = Promise.all(Array.from({ length: HOSTILE_PAYMENTS }, () => payOn(callA, "sandbox_a")))
    for (let i = 0; i < 15; i++) await callA("/v1/webhooks/endpoints", { body: { url: `${silent.url}hook/${i}` } })
    for (let i = 0; i < HOSTILE_EVENTS_PAYMENTS; i++) await payOn(callA, "sandbox_b")
    const answered = await slow
    log(`A: ${answered.filter((paid) => paid.json.status === "processing").length} payments processing; its receivers hold ${silent.held()} requests`)

    log("B under A's load")
    const hostile = await measureB(callB, timing)
    log(`B under A's load: reconciled ${show(hostile.reconciled)} after its 201; webhooks ${hostile.webhooks.map(show).join(", ")}`)
    log(`A's receivers held ${silent.held()} requests in all`)
    console.log(JSON.stringify({ alone, hostile }))
  } finally {
    await service?.stop()
    timing.close()
    silent.close()
    scratch.remove()
  }
}

main().then(() => process.exit(0), (error) => {
  console.error(error)
  process.exit(1)
})
