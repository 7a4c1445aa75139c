/**
 * Merchants' traffic as a careful client sends it: every mutating call under an Idempotency-Key,
 * retried with the same key on another HTTP process until it gets a definitive answer, whatever
 * the faults. What each key finally got is kept for the invariants.
 */

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
    for (let n = 0; Date.now() < stopAt; n++) {
      const kind = n % 10
      const key = `create-${clientId}-${n}`
      const token = kind === 7 ? "tok_chargeDeclined" : "tok_visa"
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
