/**
 * `pnpm bench:statements`: only the counting phase of `pnpm bench`, in about a minute instead of
 * six: the statements and round trips one card payment (`tok_visa`, automatic capture, its own
 * Idempotency-Key) costs on PostgreSQL, counted on the wire by the bench's relay, for the HTTP
 * process alone (no worker runs, so nothing else talks through the relay). Needs `DATABASE_URL`;
 * a database of its own is made beside it and dropped after. Counts, not times: the relay costs CPU.
 */
import { buildService, freePort, migratedMerchant, RunningService, scratchService } from "./BenchService.js"
import { closedLoop } from "./LoadGenerator.js"
import { startWireCounter } from "./WireCounter.js"

const COUNTED = Number(process.env.BENCH_COUNTED ?? 320)
const CONNECTIONS = 32

const main = async () => {
  const scratch = scratchService("pnpm bench:statements", "bench_statements")
  const { env, name, url: benchUrl } = scratch
  const relay = await startWireCounter({ host: new URL(benchUrl).hostname, port: Number(new URL(benchUrl).port || 5432) })
  let service: RunningService | undefined
  try {
    if (process.env.BENCH_SKIP_BUILD !== "1") buildService()
    const { secret } = migratedMerchant(env, name)
    const relayed = Object.assign(new URL(benchUrl), { hostname: "127.0.0.1", port: String(relay.port) })
    relayed.searchParams.set("sslmode", "disable")
    const port = await freePort()
    service = await RunningService.start(env, ["http"], port, { http: { DATABASE_URL: relayed.toString() } })
    const load = (amount: number, connections: number, prefix: string) =>
      closedLoop({
        url: `${service!.url}/v1/payments`,
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: JSON.stringify({ amount: 1234, currency: "EUR", payment_method: { type: "card", token: "tok_visa" } }),
        connections,
        seconds: 0,
        amount,
        keyPrefix: prefix
      })
    for (const connections of [1, CONNECTIONS]) {
      await load(CONNECTIONS * 2, connections, `warm-${connections}`)
      relay.reset()
      const cpuBefore = service.cpuMs("http")
      const counted = await load(COUNTED, connections, `counted-${connections}`)
      if (counted.non2xx > 0 || counted.errors > 0) throw new Error(`payments failed: ${JSON.stringify(counted)}`)
      const per = (value: number) => (value / counted.completed).toFixed(2)
      console.log(
        `[statements] ${connections} connection(s), ${counted.completed} payments: ` +
          `statements_per_payment ${per(relay.counts.statements)}, round_trips_per_payment ${per(relay.counts.roundTrips)}, ` +
          `cpu_ms_per_payment ${per(service.cpuMs("http") - cpuBefore)} (through the relay)`
      )
    }
  } finally {
    await service?.stop()
    relay.close()
    scratch.remove()
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
