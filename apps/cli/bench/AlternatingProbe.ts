/**
 * `pnpm bench:alternate REF`: this build's CPU per card payment against REF's, both services warm and
 * running side by side (each its own database on `DATABASE_URL`'s server), sent 4 s slices of
 * payments at the same rate in turn (`RATE`, 100 a second; `PAIRS`, 10; the first of each pair
 * alternates). Restarting services per round, as `pnpm bench --against` does, reads each build's
 * JIT and database anew: its rounds spread by a quarter on a shared machine, where these pairs agree
 * within a few percent. For a change too small for the bench's rounds to see.
 */
import { execFileSync } from "node:child_process"
import { buildService, defaultBundle, freePort, RunningService } from "./BenchService.js"
import { log, round } from "./BenchSettings.js"
import { PAYMENT, prepareTarget, type Target } from "./BenchTarget.js"
import { openLoop } from "./LoadGenerator.js"
import { paymentsLoad } from "./PaymentPhases.js"
import { buildRef } from "./RefBuild.js"

const PAIRS = Number(process.env.PAIRS ?? 10)
const RATE = Number(process.env.RATE ?? 100)
const SLICE_SECONDS = 4

interface Side {
  readonly target: Target
  readonly service: RunningService
}

/** CPU of the serving process per payment over one slice. */
const slice = async ({ service, target }: Side, prefix: string) => {
  const before = service.cpuMs("http")
  const sent = await openLoop({
    url: `${service.url}/v1/payments`,
    headers: target.headers,
    body: PAYMENT,
    rate: RATE,
    seconds: SLICE_SECONDS,
    keyPrefix: prefix
  })
  if (sent.failures > 0) throw new Error(`${target.commit}: ${sent.failures} payments failed`)
  return (service.cpuMs("http") - before) / sent.sent
}

const main = async () => {
  const ref = process.argv[2]
  if (ref === undefined || process.env.DATABASE_URL === undefined) throw new Error("usage: DATABASE_URL=… pnpm bench:alternate REF")
  buildService()
  const built = buildRef(ref, log)
  const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim()
  const stamp = Date.now()
  const targets = [
    prepareTarget({ commit, bundle: defaultBundle(), name: `bench_alt_${stamp}` }),
    prepareTarget({ commit: built.commit, bundle: built.bundle, name: `bench_alt_${stamp}_against` })
  ]
  const sides: Array<Side> = []
  try {
    for (const target of targets) {
      sides.push({ target, service: await RunningService.start(target.env, target.roles, await freePort(), {}, {}, target.bundle) })
    }
    // Long enough for both to have compiled their hot paths: shorter, the first pairs read the JIT.
    for (const { service, target } of sides) await paymentsLoad(target, service, 20, "warm")
    for (const { service, target } of sides) await paymentsLoad(target, service, 10, "warm-again")
    log(`${PAIRS} pairs of ${SLICE_SECONDS} s slices at ${RATE} payments/s`)
    const sums = [0, 0]
    for (let at = 0; at < PAIRS; at++) {
      const order = at % 2 === 0 ? [0, 1] : [1, 0]
      const read: Array<number> = []
      for (const index of order) read[index] = await slice(sides[index]!, `alt-${index}-${at}`)
      sums[0]! += read[0]!
      sums[1]! += read[1]!
      log(`pair ${at + 1}: ${targets[0]!.commit} ${round(read[0]!, 2)} ms, ${targets[1]!.commit} ${round(read[1]!, 2)} ms`)
    }
    log(
      `cpu_ms_per_payment ${targets[0]!.commit} ${round(sums[0]! / PAIRS, 2)}, ${targets[1]!.commit} ${round(sums[1]! / PAIRS, 2)}: ` +
        `ratio ${round(sums[0]! / sums[1]!, 3)}`
    )
  } finally {
    for (const side of sides) await side.service.stop()
    for (const target of targets) target.remove()
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
