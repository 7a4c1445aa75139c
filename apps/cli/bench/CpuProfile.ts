/**
 * `pnpm bench:profile`: where the HTTP process spends its CPU on card payments. It starts the built
 * service on PostgreSQL (`http` under `node --cpu-prof`, and `worker`), sends `PROFILE_SECONDS` of
 * payments at 32 connections, stops the service and prints the profile's busy time by where the code
 * comes from (our packages, each dependency, Node, GC) and the functions with the most self time.
 * The `.cpuprofile` stays in `PROFILE_DIR` (default a new temporary directory) for Chrome's DevTools.
 * Needs `DATABASE_URL`; a database of its own is made beside it and dropped after.
 * `PROFILE_BODY=vaulted` pays with a card the vault holds instead of a PSP token (vaulted first,
 * through the API), to set the two profiles side by side.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { buildService, freePort, migratedMerchant, RunningService, scratchService } from "./BenchService.js"
import { PAYMENT, VAULTED_CARD } from "./BenchTarget.js"
import { closedLoop } from "./LoadGenerator.js"
import { printNewestProfile } from "./ProfileSummary.js"

const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10)
const VAULTED = process.env.PROFILE_BODY === "vaulted"

const main = async () => {
  const scratch = scratchService("pnpm bench:profile", "bench_profile")
  const { env, name } = scratch
  // Outside the scratch directory, which goes with the database: the profile stays to be opened.
  const profileDir = process.env.PROFILE_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "orchestrator-cpuprofile-"))
  let service: RunningService | undefined
  try {
    if (process.env.PROFILE_SKIP_BUILD !== "1") buildService()
    const { organizationId, secret } = migratedMerchant(env, name)
    const port = await freePort()
    const headers = { authorization: `Bearer ${secret}`, "content-type": "application/json" }
    fs.mkdirSync(profileDir, { recursive: true })
    let body = PAYMENT
    const load = (seconds: number, prefix: string) =>
      closedLoop({ url: `http://127.0.0.1:${port}/v1/payments`, method: "POST", headers, body, connections: 32, seconds, keyPrefix: prefix })
    // Warmed without the profiler first would mean two processes; the profile's first seconds are
    // the warm-up's, a small share of the whole.
    service = await RunningService.start(VAULTED ? { ...env, ORCHESTRATOR_VAULT_RAW_CARD_ORGANIZATIONS: organizationId } : env, ["http", "worker"], port, {}, {
      http: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`]
    })
    if (VAULTED) {
      const card = await (await fetch(`${service.url}/v1/payment_methods`, { method: "POST", headers, body: VAULTED_CARD })).json() as { id: string }
      body = JSON.stringify({ ...JSON.parse(PAYMENT), payment_method: { type: "card", token: card.id } })
    }
    const cpuBefore = service.cpuMs("http")
    const result = await load(SECONDS, "profile")
    const cpuPerPayment = (service.cpuMs("http") - cpuBefore) / result.completed
    await service.stop()
    service = undefined
    console.log(
      `[profile] ${result.completed} payments in ${SECONDS} s (${result.requestsPerSecond.toFixed(0)}/s), ` +
        `cpu_ms_per_payment ${cpuPerPayment.toFixed(2)} (under the profiler)`
    )
    printNewestProfile(profileDir, "profile")
  } finally {
    await service?.stop()
    scratch.remove()
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
