/**
 * `pnpm bench:vaulted`: the bench's vaulted-card phase alone, in a minute: the built `http` and
 * `worker` on a PostgreSQL database of their own (made beside `DATABASE_URL`'s, dropped after), warmed
 * up, then PSP-token and vaulted-card slices alternating (`PAIRS`, 6 by default, of `SLICE_SECONDS`,
 * 4) at the same rate (`RATE`, half the warm-up's closed-loop rate unless said). Prints each slice's
 * CPU per payment and the vaulted card's extra (the vault issue allows 0.5 ms).
 * `PROBE_SKIP_BUILD=1` reuses the last `pnpm build`.
 */
import { execFileSync } from "node:child_process"
import { buildService, defaultBundle, freePort, RunningService } from "./BenchService.js"
import { log, round, WARM_UP_SECONDS } from "./BenchSettings.js"
import { prepareTarget } from "./BenchTarget.js"
import { paymentsLoad } from "./PaymentPhases.js"
import { vaultedAgainstToken, vaultedPaymentBody } from "./VaultedPhase.js"

const PAIRS = Number(process.env.PAIRS ?? 6)
const SLICE_SECONDS = Number(process.env.SLICE_SECONDS ?? 4)
/** Both loops at this many payments a second; half the warm-up's closed-loop rate unless said, as in the bench. */
const RATE = process.env.RATE === undefined ? undefined : Number(process.env.RATE)

const main = async () => {
  if (process.env.DATABASE_URL === undefined || process.env.DATABASE_URL === "") throw new Error("pnpm bench:vaulted needs DATABASE_URL (PostgreSQL)")
  if (process.env.PROBE_SKIP_BUILD !== "1") buildService()
  const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim()
  const target = prepareTarget({ commit, bundle: defaultBundle(), name: `bench_vaulted_${Date.now()}` })
  let service: RunningService | undefined
  try {
    service = await RunningService.start(target.env, target.roles, await freePort())
    log("warm-up: PSP token, then vaulted card")
    const warm = await paymentsLoad(target, service, WARM_UP_SECONDS, "warm")
    const body = await vaultedPaymentBody(target, service)
    if (body === null) throw new Error("this build has no vault (POST /v1/payment_methods refused the card)")
    await paymentsLoad(target, service, WARM_UP_SECONDS / 2, "warm-vaulted", body)
    const figures = (await vaultedAgainstToken(target, service, {
      seconds: SLICE_SECONDS,
      pairs: PAIRS,
      rate: RATE ?? Math.max(1, Math.floor(warm.requestsPerSecond / 2))
    }))!
    for (const [at, slice] of figures.slices.entries()) {
      log(`pair ${at + 1}: token ${round(slice.token, 2)} ms, vaulted ${round(slice.vaulted, 2)} ms per payment`)
    }
    log(
      `token ${round(figures.token_cpu_ms, 2)} ms, vaulted ${round(figures.vaulted_cpu_ms, 2)} ms: ` +
        `vaulted_extra_cpu_ms ${round(figures.vaulted_cpu_ms - figures.token_cpu_ms, 2)} (target ≤ 0.5)`
    )
  } finally {
    await service?.stop()
    target.remove()
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
