import { type Job, makeId, SIGNATURE_HEADER, signatureHeader } from "@orchestrator/core"
import { Clock, Effect, Option, Redacted, Schema } from "effect"
import type { SandboxCharge, SandboxLedger, SandboxRefund } from "./SandboxLedger.js"
import { chargeObject, refundObject, SandboxWebhook } from "./SandboxWebhooks.js"

const encode = Schema.encodeSync(Schema.parseJson(SandboxWebhook))

/** The event's `id` and `created` (seconds), which every sandbox webhook begins with. */
type EventHead = { readonly id: string; readonly created: number }

/** Owes the connection a webhook, stamped now with a new event id. */
const notify = (ledger: SandboxLedger["Type"], connectionId: string, webhook: (head: EventHead) => SandboxWebhook) =>
  Effect.flatMap(Clock.currentTimeMillis, (millis) => {
    const id = makeId("sbev", millis)
    const payload = encode(webhook({ id, created: Math.floor(millis / 1000) }))
    return ledger.notify({ id, connectionId, payload, createdAtMillis: millis })
  })

/** The sandbox owes the connection a webhook about a charge that moved without a call (3DS done). */
export const notifyCharge = (ledger: SandboxLedger["Type"], charge: SandboxCharge) =>
  notify(ledger, charge.connectionId, (head) => ({ ...head, type: "charge.updated", data: { charge: chargeObject(charge) } }))

const notifyRefund = (ledger: SandboxLedger["Type"], refund: SandboxRefund) =>
  notify(ledger, refund.connectionId, (head) => ({ ...head, type: "refund.updated", data: { refund: refundObject(refund) } }))

/**
 * The sandbox's own background work, as a real PSP's: settles the asynchronous refunds that are due,
 * and sends every webhook it owes, signed with the connection's webhook secret, until the service
 * takes it with a 2xx. What it needs from the service (the secret, a way to POST) it is handed.
 */
export const sandboxNotifierJob = (options: {
  readonly ledger: SandboxLedger["Type"]
  /** Where the service takes a connection's webhooks (`PublicUrls.providerWebhook`). */
  readonly webhookUrl: (connectionId: string) => string
  readonly webhookSecret: (connectionId: string) => Effect.Effect<Option.Option<Redacted.Redacted<string>>>
  /** POSTs `body` with `headers`; the status answered, or `None` when nothing answered. */
  readonly post: (url: string, body: Uint8Array, headers: Record<string, string>) => Effect.Effect<Option.Option<number>>
}): Job => ({
  name: "sandbox-notifications",
  every: "1 second",
  run: Effect.gen(function*() {
    const { ledger } = options
    const now = yield* Clock.currentTimeMillis
    for (const refund of yield* ledger.settleDueRefunds(now, 100)) yield* notifyRefund(ledger, refund)
    const due = yield* ledger.claimNotifications(now, now + 30_000, 100)
    let sent = 0
    for (const owed of due) {
      const secret = yield* options.webhookSecret(owed.connectionId)
      if (Option.isNone(secret)) continue
      const body = new TextEncoder().encode(owed.payload)
      const signature = yield* signatureHeader([Redacted.value(secret.value)], Math.floor(now / 1000), body)
      const status = yield* options.post(options.webhookUrl(owed.connectionId), body, {
        "content-type": "application/json",
        [SIGNATURE_HEADER]: signature
      })
      // Unanswered or refused: it stays owed, and goes again once its claim lapses.
      if (Option.exists(status, (code) => code >= 200 && code < 300)) {
        yield* ledger.markNotified(owed.id, now)
        sent++
      }
    }
    return sent
  })
})
