/**
 * A vaulted card's extra CPU against a PSP token, measured like with like: short slices of the two
 * alternating on one warm service, so both see the same worker draining behind them and the same
 * machine, each sent at the same rate (an open loop; half the closed loop's rate in the bench), so
 * neither gets more requests per turn of the event loop to share its fixed costs with. (Run one after
 * the other as closed loops, the vaulted loop paid for the token loop's backlog and its own lower
 * rate: 2.86 ms "extra" in the bench where alternating slices by hand read 1.7.)
 */
import { type RunningService } from "./BenchService.js"
import { log } from "./BenchSettings.js"
import { PAYMENT, type Target, VAULTED_CARD } from "./BenchTarget.js"
import { openLoop } from "./LoadGenerator.js"

export interface VaultedFigures {
  /** CPU per payment of the serving process in the token slices. */
  readonly token_cpu_ms: number
  /** The same in the vaulted slices (the card read with its access record, decrypted, forwarded). */
  readonly vaulted_cpu_ms: number
  readonly slices: ReadonlyArray<{ readonly token: number; readonly vaulted: number }>
}

/** A card vaulted through the API for `target`'s merchant; null when the build has no vault. */
export const vaultedPaymentBody = async (target: Target, service: RunningService) => {
  const vaulted = await fetch(`${service.url}/v1/payment_methods`, { method: "POST", headers: target.headers, body: VAULTED_CARD })
  const card = await vaulted.json().catch(() => undefined) as { id?: string } | undefined
  if (vaulted.status !== 201 || card?.id === undefined) return null
  return JSON.stringify({ ...JSON.parse(PAYMENT), payment_method: { type: "card", token: card.id } })
}

/**
 * `pairs` token slices and vaulted slices of `seconds` each, alternating (token first), at `rate`
 * payments a second; null without a vault.
 */
export const vaultedAgainstToken = async (
  target: Target,
  service: RunningService,
  options: { readonly seconds: number; readonly pairs: number; readonly rate: number }
): Promise<VaultedFigures | null> => {
  const body = await vaultedPaymentBody(target, service)
  if (body === null) return null
  const role = target.roles[0]!
  const slice = async (name: string, sent: string) => {
    const before = service.cpuMs(role)
    const open = await openLoop({
      url: `${service.url}/v1/payments`,
      headers: target.headers,
      body: sent,
      rate: options.rate,
      seconds: options.seconds,
      keyPrefix: name
    })
    if (open.failures > 0) throw new Error(`${name} payments failed at ${options.rate}/s: ${JSON.stringify(open)}`)
    return { cpu: service.cpuMs(role) - before, completed: open.sent }
  }
  log(`${target.commit}: PSP token and vaulted card alternating, ${options.pairs} × ${options.seconds} s each, ${options.rate} payments/s`)
  const slices: Array<{ token: number; vaulted: number }> = []
  const sum = { token: { cpu: 0, completed: 0 }, vaulted: { cpu: 0, completed: 0 } }
  for (let at = 0; at < options.pairs; at++) {
    const token = await slice(`alt-token-${at}`, PAYMENT)
    const vaulted = await slice(`alt-vaulted-${at}`, body)
    for (const [name, one] of [["token", token], ["vaulted", vaulted]] as const) {
      sum[name].cpu += one.cpu
      sum[name].completed += one.completed
    }
    slices.push({ token: token.cpu / Math.max(1, token.completed), vaulted: vaulted.cpu / Math.max(1, vaulted.completed) })
  }
  return {
    token_cpu_ms: sum.token.cpu / Math.max(1, sum.token.completed),
    vaulted_cpu_ms: sum.vaulted.cpu / Math.max(1, sum.vaulted.completed),
    slices
  }
}
