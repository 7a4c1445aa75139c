/**
 * `pnpm bench:deliveries`: the bench's webhook-delivery phase alone, in a minute rather than the whole
 * bench's twenty. PostgreSQL with `DATABASE_URL` (a database of its own is made beside it and dropped);
 * `BACKLOG` events (2 000 by default) of distinct payments, after `HISTORY` dispatched events of the
 * same merchant (50 000 by default), drained by the built `http` and `worker`
 * processes into a counting receiver; `PROBE_SKIP_BUILD=1` reuses the last `pnpm build`. Prints
 * deliveries/s, lost and duplicated, and how the deliveries ended (status, attempts, last error).
 */
import { Redacted } from "effect"
import { execFileSync } from "node:child_process"
import { startCountingReceiver } from "../support/CountingReceiver.js"
import { buildService, freePort, migratedMerchant, RunningService, scratchService } from "./BenchService.js"
import { printNewestProfile } from "./ProfileSummary.js"
import { seedEvents } from "./Seeding.js"

const BACKLOG = Number(process.env.BACKLOG ?? 2_000)
/** Dispatched events of the same merchant before the backlog, as the bench's payment phases leave them. */
const HISTORY = Number(process.env.HISTORY ?? 50_000)
const DEADLINE_SECONDS = Number(process.env.PROBE_DEADLINE_SECONDS ?? 300)
/** Profiles the worker during the drain (`node --cpu-prof` into this directory) and sums the profile up. */
const PROFILE_DIR = process.env.PROBE_PROFILE_DIR

const log = (line: string) => console.log(`[probe] ${line}`)

const main = async () => {
  const scratch = scratchService("pnpm bench:deliveries", "probe", {
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    ORCHESTRATOR_EGRESS_PRIVATE_ADDRESSES: "allow"
  })
  const { env, name, url: probeUrl } = scratch
  let service: RunningService | undefined
  const receiver = await startCountingReceiver()
  try {
    if (process.env.PROBE_SKIP_BUILD !== "1") buildService()
    const { organizationId, secret } = migratedMerchant(env, name)
    const headers = { authorization: `Bearer ${secret}`, "content-type": "application/json" }
    const port = await freePort()
    service = await RunningService.start(env, ["http", "worker"], port)
    const payment = await (await fetch(`${service.url}/v1/payments`, {
      method: "POST",
      headers: { ...headers, "idempotency-key": `probe-${Date.now()}` },
      body: JSON.stringify({ amount: 1234, currency: "EUR", payment_method: { type: "card", token: "tok_visa" } })
    })).json()
    await fetch(`${service.url}/v1/webhooks/endpoints`, {
      method: "POST",
      headers,
      body: JSON.stringify({ url: receiver.url, enabled_events: ["payment.succeeded"] })
    })
    await service.stop()
    service = undefined
    log(`a backlog of ${BACKLOG} events of distinct payments, after ${HISTORY} dispatched ones`)
    execFileSync("psql", [
      probeUrl,
      "-X",
      "-qc",
      `insert into events (id, organization_id, livemode, type, api_version, data, created_at, dispatched_at)
      select 'evt_old_' || n, '${organizationId}', false, 'payment.created', '2026-11-01',
        jsonb_build_object('object', jsonb_set($json$${
        JSON.stringify(payment)
      }$json$::jsonb, '{id}', to_jsonb('pay_old_' || n))), now() - interval '1 hour' + n * interval '1 millisecond', now()
      from generate_series(1, ${HISTORY}) as n; analyze events`
    ])
    await seedEvents({ _tag: "Postgres", url: Redacted.make(probeUrl) }, organizationId, BACKLOG, payment)
    const started = Date.now()
    service = await RunningService.start(
      env,
      ["http", "worker"],
      port,
      {},
      PROFILE_DIR === undefined ? {} : { worker: ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] }
    )
    const seeded = () => [...receiver.counts.keys()].filter((id) => id.startsWith("evt_seed_")).length
    const deadline = started + DEADLINE_SECONDS * 1000
    let reported = started
    // The bench counts the service's start in the drain; the first delivery's time tells it apart.
    let firstAt: number | undefined
    while (seeded() < BACKLOG && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      if (firstAt === undefined && seeded() > 0) firstAt = Date.now()
      if (Date.now() - reported >= 5_000) {
        reported = Date.now()
        log(`${seeded()} delivered after ${((reported - started) / 1000).toFixed(0)} s`)
      }
    }
    const seconds = (Date.now() - started) / 1000
    const flowing = (Date.now() - (firstAt ?? started)) / 1000
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    const duplicated = [...receiver.counts.entries()].filter(([id, count]) => id.startsWith("evt_seed_") && count > 1).length
    log(`deliveries_per_s ${(seeded() / seconds).toFixed(1)} (${seeded()} of ${BACKLOG} in ${seconds.toFixed(1)} s, the start included)`)
    log(`from the first delivery on: ${(seeded() / flowing).toFixed(1)}/s; lost ${BACKLOG - seeded()}, duplicated ${duplicated}`)
    console.log(execFileSync("psql", [
      probeUrl,
      "-X",
      "-c",
      `select status, attempt_count, left(last_error, 80) as last_error, count(*)
      from webhook_deliveries group by 1, 2, 3 order by 4 desc limit 10`
    ], { encoding: "utf8" }))
    console.log(execFileSync("psql", [
      probeUrl,
      "-X",
      "-c",
      `select count(*) filter (where dispatched_at is null) as undispatched,
      count(*) as events from events`
    ], { encoding: "utf8" }))
    if (PROFILE_DIR !== undefined) {
      await service.stop()
      service = undefined
      printNewestProfile(PROFILE_DIR, "probe")
    }
  } finally {
    receiver.close()
    await service?.stop()
    const keepDatabase = process.env.PROBE_KEEP_DATABASE === "1"
    scratch.remove({ keepDatabase })
    if (keepDatabase) log(`database kept: ${probeUrl}`)
  }
}

main().then(() => process.exit(0), (error) => {
  console.error(error)
  process.exit(1)
})
