import { Clock, Context, Effect } from "effect"
import type { Rate } from "../../domain/limits/CellRate.js"
import type { ProviderConnection } from "../../domain/providers/ProviderConnection.js"
import { ProviderWebhookThrottled } from "../../domain/providers/ProviderWebhookErrors.js"
import type { IncomingWebhook, PaymentConnector, WebhookClaim } from "../../ports/PaymentConnector.js"
import { ProviderEventsRepository } from "../../ports/ProviderEventsRepository.js"
import { RateLimiter } from "../../ports/RateLimiter.js"
import { countWith, providerWebhooksThrottledTotal } from "../observability/ServiceMetrics.js"

/**
 * How many webhooks a connection whose webhooks cost a call to its PSP may send: 100 at once, then
 * 10 a second. A PSP tells of each change once (and retries what was refused, later); a stranger
 * posting made-up webhooks would otherwise spend the merchant's PSP quota one call per post.
 */
export class WebhookIntakeLimit extends Context.Reference<WebhookIntakeLimit>()("core/WebhookIntakeLimit", {
  defaultValue: (): Rate => ({ count: 100, periodMs: 10_000 })
}) {}

/** How long, and how many, claims the PSP refused are remembered in this process. */
const REMEMBERED_FOR_MS = 60 * 60 * 1000
const REMEMBERED_AT_MOST = 10_000

/** What the intake decided before any call: go on and ask the PSP, or the answer already known. */
export type IntakeDecision =
  | { readonly _tag: "Ask" }
  | { readonly _tag: "Repeat" }
  | { readonly _tag: "Refused"; readonly reason: string }

const ASK: IntakeDecision = { _tag: "Ask" }

/**
 * The gate in front of a PSP call made to read a webhook (`PaymentConnector.webhookClaim`). What was
 * seen before is answered without the call: an event already stored is a repeat, an object the PSP
 * already disowned for this connection is refused again (remembered in this process for an hour).
 * Anything else passes the connection's intake limit, counted through the rate limiter (shared by
 * every process when it is Redis), or is refused with 429 before anything is called.
 */
export const makeWebhookIntake = Effect.gen(function*() {
  const limiter = yield* RateLimiter
  const rate = yield* WebhookIntakeLimit
  const events = yield* ProviderEventsRepository
  const refusals = new Map<string, { readonly reason: string; readonly until: number }>()
  const keyOf = (connectionId: string, subject: string) => `${connectionId}\u0000${subject}`

  const remembered = (connectionId: string, claim: WebhookClaim) =>
    Effect.map(Clock.currentTimeMillis, (now) => {
      if (claim.subject === undefined) return undefined
      const key = keyOf(connectionId, claim.subject)
      const refusal = refusals.get(key)
      if (refusal !== undefined && refusal.until <= now) refusals.delete(key)
      return refusal !== undefined && refusal.until > now ? refusal.reason : undefined
    })

  /** What to do with a webhook of `connection` before its connector asks the PSP about it. */
  const admit = (connection: ProviderConnection, connector: PaymentConnector, webhook: IncomingWebhook) =>
    Effect.gen(function*() {
      if (connector.webhookClaim === undefined) return ASK
      const claim = connector.webhookClaim(webhook)
      const refused = yield* remembered(connection.id, claim)
      if (refused !== undefined) return { _tag: "Refused", reason: refused } satisfies IntakeDecision
      if (claim.eventId !== undefined && (yield* events.has(connection.id, claim.eventId))) return { _tag: "Repeat" } satisfies IntakeDecision
      const decision = yield* limiter.admit(`provider-webhooks:${connection.id}`, rate, { peek: false })
      if (!decision.allowed) {
        yield* countWith(providerWebhooksThrottledTotal, { provider: connection.type })
        return yield* new ProviderWebhookThrottled({ retryAfterMs: decision.retryAfterMs })
      }
      return ASK
    })

  /** The PSP said what `webhook` names is not this connection's: the same claim is refused without asking again. */
  const disowned = (connection: ProviderConnection, connector: PaymentConnector, webhook: IncomingWebhook, reason: string) =>
    Effect.map(Clock.currentTimeMillis, (now) => {
      const subject = connector.webhookClaim?.(webhook).subject
      if (subject === undefined) return
      if (refusals.size >= REMEMBERED_AT_MOST) refusals.delete(refusals.keys().next().value!)
      refusals.set(keyOf(connection.id, subject), { reason, until: now + REMEMBERED_FOR_MS })
    })

  return { admit, disowned }
})
