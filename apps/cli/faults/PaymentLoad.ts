/**
 * Merchants' traffic as a careful client sends it: every mutating call under an Idempotency-Key,
 * retried with the same key on another HTTP process until it gets a definitive answer, whatever
 * the faults. What each key finally got is kept for the invariants.
 */
import { VAULTED_CARD } from "./CardNumbers.js"

export interface LoadOptions {
  readonly apiUrls: ReadonlyArray<string>
  readonly secret: string
  readonly clients: number
  readonly durationMs: number
  readonly giveUpAfterMs: number
}

export interface LoadFigures {
  requests: number
  retries: number
  byStatus: Record<string, number>
  /** Every payment id any answer gave for each creation key. */
  paymentsByKey: Map<string, Set<string>>
  /** Keys whose creation never got a definitive answer. */
  unanswered: Array<string>
}

/** What the service says about the vaulted card: its token, once one HTTP process answered 201. */
const vaultCard = async (options: LoadOptions, figures: LoadFigures, clientId: number) => {
  const deadline = Date.now() + options.giveUpAfterMs
  for (let attempt = 0; Date.now() < deadline; attempt++) {
    const url = options.apiUrls[(clientId + attempt) % options.apiUrls.length]!
    figures.requests++
    try {
      // No Idempotency-Key: the service keeps no digest of a request holding a card number. A retry
      // after a lost answer vaults the card again, which moves no money.
      const response = await fetch(`${url}/v1/payment_methods`, {
        method: "POST",
        headers: { authorization: `Bearer ${options.secret}`, "content-type": "application/json" },
        body: JSON.stringify({ type: "card", card: VAULTED_CARD }),
        signal: AbortSignal.timeout(30_000)
      })
      const json: any = await response.json().catch(() => undefined)
      const answer = response.status >= 400 ? `${response.status} ${json?.error?.code}` : String(response.status)
      figures.byStatus[`vault ${answer}`] = (figures.byStatus[`vault ${answer}`] ?? 0) + 1
      if (response.status === 201 && typeof json?.id === "string") return json.id as string
      if (response.status < 500 && response.status !== 429) throw new Error(`vaulting the card answered ${answer}`)
    } catch (error) {
      if (error instanceof Error && error.message.startsWith("vaulting")) throw error
    }
    figures.retries++
    await pause(100 + Math.random() * 200)
  }
  throw new Error("vaulting the card never got an answer")
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Retry the same request: the service was down or restarting, or it is still working on the key.
 * Any other 409 (the payment is no longer in the state the request needs) is an answer.
 */
const worthRetrying = (status: number, code: unknown) =>
  status >= 500 || status === 429 || status === 0 || (status === 409 && code === "idempotency_key_in_use")

export const runPaymentLoad = async (options: LoadOptions) => {
  const figures: LoadFigures = { requests: 0, retries: 0, byStatus: {}, paymentsByKey: new Map(), unanswered: [] }
  let next = 0
  const send = async (path: string, key: string, body: unknown) => {
    const deadline = Date.now() + options.giveUpAfterMs
    for (let attempt = 0; Date.now() < deadline; attempt++) {
      const url = options.apiUrls[(next++) % options.apiUrls.length]!
      let status = 0
      let json: any = undefined
      figures.requests++
      if (attempt > 0) figures.retries++
      try {
        const response = await fetch(`${url}${path}`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${options.secret}`,
            "content-type": "application/json",
            "idempotency-key": key
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(30_000)
        })
        status = response.status
        json = await response.json().catch(() => undefined)
      } catch {
        status = 0
      }
      const answer = status >= 400 && typeof json?.error?.code === "string" ? `${status} ${json.error.code}` : String(status)
      figures.byStatus[answer] = (figures.byStatus[answer] ?? 0) + 1
      if (!worthRetrying(status, json?.error?.code)) return { status, json }
      await pause(100 + Math.random() * 200)
    }
    return undefined
  }

  const notePayment = (key: string, json: any) => {
    const id = json?.id ?? json?.error?.payment?.id
    if (typeof id !== "string") return
    const seen = figures.paymentsByKey.get(key) ?? new Set<string>()
    seen.add(id)
    figures.paymentsByKey.set(key, seen)
  }

  const client = async (clientId: number, stopAt: number) => {
    // A card held by the service's vault pays a fifth of this client's payments (failing over with
    // the others when a connection is in outage); its CVC goes with the first authorization only.
    const vaulted = await vaultCard(options, figures, clientId)
    for (let n = 0; Date.now() < stopAt; n++) {
      const kind = n % 10
      const key = `create-${clientId}-${n}`
      const token = kind === 7 ? "tok_chargeDeclined" : kind === 3 || kind === 5 ? vaulted : "tok_visa"
      const created = await send("/v1/payments", key, {
        amount: 1000 + n,
        currency: "EUR",
        payment_method: { type: "card", token },
        capture: kind !== 8
      })
      if (created === undefined) {
        figures.unanswered.push(key)
        continue
      }
      notePayment(key, created.json)
      const payment = created.json
      if (kind === 8 && payment?.status === "requires_capture") {
        const captured = await send(`/v1/payments/${payment.id}/capture`, `capture-${clientId}-${n}`, {})
        if (captured === undefined) figures.unanswered.push(`capture-${clientId}-${n}`)
      }
      if (kind === 9 && payment?.status === "succeeded") {
        for (const part of [1, 2]) {
          const refunded = await send(`/v1/payments/${payment.id}/refund`, `refund-${clientId}-${n}-${part}`, { amount: 300 })
          if (refunded === undefined) figures.unanswered.push(`refund-${clientId}-${n}-${part}`)
        }
      }
    }
  }

  const stopAt = Date.now() + options.durationMs
  await Promise.all(Array.from({ length: options.clients }, (_, id) => client(id, stopAt)))
  return figures
}
