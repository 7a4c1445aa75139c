/**
 * `pnpm test:faults`: two HTTP processes and two workers on one PostgreSQL, under load, while an
 * HTTP process and a worker are killed with SIGKILL, PostgreSQL restarts, and a sandbox connection
 * goes into outage and back. Then the invariants of money and webhooks are checked; any violation
 * fails the run. Needs `DATABASE_URL` (a database of its own is created beside it) and, when set,
 * uses `REDIS_URL` for rate limits as production would.
 */
import { startCountingReceiver } from "../support/CountingReceiver.js"
import { dumpHoldsCardNumber, holdsCardNumber } from "./CardNumbers.js"
import { createDatabase, dropDatabase, restartPostgres } from "./Database.js"
import { checkInvariants, settled } from "./Invariants.js"
import { runPaymentLoad } from "./PaymentLoad.js"
import { cli, freePort, ServiceProcess, waitUntilReady } from "./ServiceProcesses.js"

const LOAD_MS = Number(process.env.FAULTS_LOAD_MS ?? 30_000)
const SETTLE_TIMEOUT_MS = Number(process.env.FAULTS_SETTLE_MS ?? 420_000)
const CLIENTS = Number(process.env.FAULTS_CLIENTS ?? 8)

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const log = (line: string) => console.log(`[faults ${new Date().toISOString().slice(11, 19)}] ${line}`)

const main = async () => {
  const baseUrl = process.env.DATABASE_URL
  if (baseUrl === undefined) throw new Error("pnpm test:faults needs DATABASE_URL (PostgreSQL): the suite restarts it")
  const name = `faults_${Date.now()}`
  const database = createDatabase(baseUrl, name)
  let webhookBodiesWithCardNumber = 0
  const receiver = await startCountingReceiver({
    inspect: (body) => {
      if (holdsCardNumber(body)) webhookBodiesWithCardNumber++
    }
  })
  const ports = [await freePort(), await freePort()]
  const env = {
    DATABASE_URL: database.url,
    ORCHESTRATOR_ENCRYPTION_KEY: "5a".repeat(32),
    // On PostgreSQL the vault's keys are required (every process must open every card, and fingerprint it alike).
    ORCHESTRATOR_VAULT_KEYS: `1:${Buffer.alloc(32, 0x5a).toString("base64")}`,
    ORCHESTRATOR_VAULT_FINGERPRINT_KEY: Buffer.alloc(32, 0x5a ^ 1).toString("base64"),
    ORCHESTRATOR_DATA_DIR: `/tmp/${name}`,
    ORCHESTRATOR_BASE_URL: `http://127.0.0.1:${ports[0]}`,
    LOG_LEVEL: "warn",
    // The webhook receiver counting deliveries listens on this machine (PostgreSQL denies that by default).
    ORCHESTRATOR_EGRESS_PRIVATE_ADDRESSES: "allow",
    ...(process.env.REDIS_URL === undefined ? {} : { REDIS_URL: process.env.REDIS_URL })
  }
  const processes: Array<ServiceProcess> = []
  const faults: Array<string> = []
  try {
    cli(env, "migrate")
    const organizationId = /Created organization (org_\w+)/.exec(cli(env, "org", "create", "--name", name))![1]!
    const secret = /Secret \(shown once, store it now\): (sk_test_\w+)/.exec(cli(env, "keys", "create", "--org", organizationId))![1]!
    // The load is a test of faults, not of the rate limit.
    cli(env, "org", "rate-limit", "--org", organizationId, "--test-rps", "100000")

    // The load vaults a card through the API (raw card data, as a merchant migrating a vault would).
    const serviceEnv = { ...env, ORCHESTRATOR_VAULT_RAW_CARD_ORGANIZATIONS: organizationId }
    for (const [index, port] of ports.entries()) {
      processes.push(new ServiceProcess(`http-${index + 1}`, "http", { ...serviceEnv, PORT: String(port) }))
    }
    processes.push(new ServiceProcess("worker-1", "worker", serviceEnv), new ServiceProcess("worker-2", "worker", serviceEnv))
    for (const process of processes) process.start()
    const apiUrls = ports.map((port) => `http://127.0.0.1:${port}`)
    for (const [index, url] of apiUrls.entries()) {
      await waitUntilReady(`${url}/readyz`).catch((error) => {
        throw new Error(`${error.message}\n--- ${processes[index]!.name} ---\n${processes[index]!.log.slice(-3000)}`)
      })
    }

    const headers = { authorization: `Bearer ${secret}`, "content-type": "application/json" }
    const endpoint = await (await fetch(`${apiUrls[0]}/v1/webhooks/endpoints`, {
      method: "POST",
      headers,
      signal: AbortSignal.timeout(30_000),
      body: JSON.stringify({ url: receiver.url, enabled_events: ["*"] })
    })).json() as { id: string }
    const connections = await (await fetch(`${apiUrls[0]}/v1/provider-connections`, { headers })).json() as {
      data: Array<{ id: string; name: string }>
    }
    const sandboxA = connections.data.find((connection) => connection.name === "sandbox_a")!
    const setOutage = (outage: boolean) =>
      fetch(`${apiUrls[1]}/v1/provider-connections/${sandboxA.id}`, {
        method: "PATCH",
        headers,
        body: JSON.stringify({ settings: { outage } })
      }).then((response) => {
        if (response.status !== 200) throw new Error(`setting the outage answered ${response.status}`)
      })

    log(`load: ${CLIENTS} clients for ${LOAD_MS / 1000} s over ${apiUrls.length} HTTP processes and 2 workers`)
    const load = runPaymentLoad({ apiUrls, secret, clients: CLIENTS, durationMs: LOAD_MS, giveUpAfterMs: 180_000 })
    const step = LOAD_MS / 7
    const schedule: Array<[number, string, () => Promise<void>]> = [
      [step, "SIGKILL http-1, started again", () => processes[0]!.restart()],
      [step * 2, "SIGKILL worker-1, started again", () => processes[2]!.restart()],
      [step * 3, "PostgreSQL restarted", async () => restartPostgres()],
      [step * 4, "sandbox_a put into outage", () => setOutage(true)],
      [step * 5, "sandbox_a back from outage", () => setOutage(false)],
      [step * 6, "SIGKILL http-2 and worker-2, started again", async () => {
        await Promise.all([processes[1]!.restart(), processes[3]!.restart()])
      }]
    ]
    const started = Date.now()
    for (const [at, description, inject] of schedule) {
      await pause(Math.max(0, started + at - Date.now()))
      // The database may still be coming back from its restart: a fault waits for it.
      for (let tries = 0;; tries++) {
        try {
          await inject()
          break
        } catch (error) {
          if (tries > 50) throw error
          await pause(500)
        }
      }
      faults.push(description)
      log(`fault: ${description}`)
    }
    const figures = await load
    log(`load done: ${figures.requests} requests (${figures.retries} retries), answers ${JSON.stringify(figures.byStatus)}`)

    // Reconciliation and redelivery run on their own schedules (a lost answer is reconciled after
    // two minutes); wait for the workers to finish, as an operator would.
    const deadline = Date.now() + SETTLE_TIMEOUT_MS
    let open = settled(database, organizationId)
    while (Date.now() < deadline && (open.processing + open.pending_refunds + open.undispatched + open.undelivered) > 0) {
      await pause(2_000)
      open = settled(database, organizationId)
    }
    log(`settled after the load: ${JSON.stringify(open)}`)

    const cardNumbers = [
      ...(dumpHoldsCardNumber(database) ? ["pg_dump of the database holds the vaulted card's number"] : []),
      ...processes.filter((process) => process.scan.sightings > 0).map((process) =>
        `${process.name} printed the vaulted card's number ${process.scan.sightings} times`
      ),
      ...(webhookBodiesWithCardNumber > 0 ? [`${webhookBodiesWithCardNumber} webhook bodies held the vaulted card's number`] : [])
    ]
    const invariants = [
      ...checkInvariants(database, organizationId, figures, receiver.counts, endpoint.id),
      { name: "no card number outside the vault: database dump, every process's output, webhook bodies", violations: cardNumbers }
    ]
    const violations = invariants.reduce((sum, invariant) => sum + invariant.violations.length, 0)
    const payments = figures.paymentsByKey.size
    console.log("")
    console.log(`requests            ${figures.requests} (${figures.retries} retried with the same key)`)
    console.log(`payments            ${payments}`)
    console.log(`webhooks received   ${[...receiver.counts.values()].reduce((a, b) => a + b, 0)} for ${receiver.counts.size} events`)
    console.log(`faults injected     ${faults.length}: ${faults.join("; ")}`)
    console.log(`invariants checked  ${invariants.length}`)
    for (const invariant of invariants) {
      console.log(`  ${invariant.violations.length === 0 ? "ok  " : "FAIL"} ${invariant.name}`)
      for (const violation of invariant.violations.slice(0, 10)) console.log(`         ${violation}`)
    }
    console.log(`violations          ${violations}`)
    if (violations > 0) {
      for (const process of processes) console.log(`\n--- last output of ${process.name} ---\n${process.log.slice(-3000)}`)
      process.exitCode = 1
    }
  } finally {
    await Promise.all(processes.map((process) => process.kill("SIGTERM")))
    receiver.close()
    dropDatabase(baseUrl, name)
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
