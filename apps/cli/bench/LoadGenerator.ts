/**
 * Load from autocannon (closed loop: N connections, each sends its next request when the last is
 * answered) and an open-loop driver (requests leave at fixed times whatever the answers do; each
 * latency counts from the time the request was due, so a stall shows in full: no coordinated
 * omission).
 */
import autocannon from "autocannon"
import * as http from "node:http"

export interface ClosedLoop {
  readonly requestsPerSecond: number
  /** Requests answered 2xx. */
  readonly completed: number
  readonly errors: number
  readonly non2xx: number
}

export interface Percentiles {
  readonly p50: number
  readonly p95: number
  readonly p99: number
}

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

export const percentilesOf = (latencies: ReadonlyArray<number>): Percentiles => {
  const sorted = [...latencies].sort((a, b) => a - b)
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), p99: percentile(sorted, 0.99) }
}

let keyCounter = 0
/** A fresh Idempotency-Key for every request, as a real client sends. */
export const freshKey = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${keyCounter++}`

export const closedLoop = (options: {
  readonly url: string
  readonly method?: "GET" | "POST"
  readonly headers: Record<string, string>
  readonly body?: string
  readonly connections: number
  readonly seconds: number
  /** Stop after this many requests (all answered) instead of after `seconds`. */
  readonly amount?: number
  /** Each request gets its own Idempotency-Key with this prefix; absent, headers are sent as given. */
  readonly keyPrefix?: string
}): Promise<ClosedLoop> =>
  new Promise((resolve, reject) => {
    autocannon({
      url: options.url,
      method: options.method ?? "GET",
      connections: options.connections,
      ...(options.amount === undefined ? { duration: options.seconds } : { amount: options.amount }),
      headers: options.headers,
      ...(options.body === undefined ? {} : { body: options.body }),
      ...(options.keyPrefix === undefined ? {} : {
        requests: [{
          setupRequest: (request: any) => ({
            ...request,
            headers: { ...request.headers, "idempotency-key": freshKey(options.keyPrefix!) }
          })
        }]
      })
    }, (error, result) => {
      if (error) return reject(error)
      resolve({ requestsPerSecond: result.requests.average, completed: result["2xx"], errors: result.errors, non2xx: result.non2xx })
    })
  })

/** One request at a time: the latency a single checkout sees. */
export const sequential = async (count: number, send: () => Promise<number>) => {
  const latencies: Array<number> = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    const status = await send()
    if (status >= 400) throw new Error(`a sequential request answered ${status}`)
    latencies.push(performance.now() - started)
  }
  return percentilesOf(latencies)
}

/** `rate` requests a second for `seconds`, each due at its time; latency counted from then. */
export const openLoop = async (options: {
  readonly url: string
  readonly headers: Record<string, string>
  readonly body: string
  readonly rate: number
  readonly seconds: number
  readonly keyPrefix: string
}) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity })
  const target = new URL(options.url)
  const total = Math.max(1, Math.round(options.rate * options.seconds))
  const interval = 1000 / options.rate
  const latencies: Array<number> = []
  let failures = 0
  const start = performance.now() + 50
  const send = (due: number) =>
    new Promise<void>((resolve) => {
      const request = http.request({
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: { ...options.headers, "idempotency-key": freshKey(options.keyPrefix) }
      }, (response) => {
        response.resume()
        response.on("end", () => {
          if ((response.statusCode ?? 500) >= 400) failures++
          latencies.push(performance.now() - due)
          resolve()
        })
      })
      request.on("error", () => {
        failures++
        resolve()
      })
      request.end(options.body)
    })
  const inFlight: Array<Promise<void>> = []
  for (let i = 0; i < total; i++) {
    const due = start + i * interval
    const wait = due - performance.now()
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait))
    inFlight.push(send(due))
  }
  await Promise.all(inFlight)
  agent.destroy()
  return { ...percentilesOf(latencies), sent: total, failures }
}
