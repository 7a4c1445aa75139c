import { DateTime, Effect, Option } from "effect"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import { type AttemptVerdict, type EndpointHealth, nextHealth, sameHealth, WebhookDeliveryPolicy } from "../../domain/webhooks/EndpointHealth.js"
import { WebhookEndpoint } from "../../domain/webhooks/WebhookEndpointResource.js"
import { Transactions } from "../../ports/Transactions.js"
import { WebhookEndpointsRepository } from "../../ports/WebhookEndpointsRepository.js"
import { EventLog } from "../events/EventLog.js"

/**
 * Each endpoint's health as its attempts end, kept in storage so every worker sees it: failures
 * counted and the circuit opened or closed (see `nextHealth`), and an endpoint every attempt to
 * which has failed for `disableAfter` disabled, with its `webhook_endpoint.disabled` event, in one
 * transaction.
 */
export const makeEndpointCircuits = Effect.gen(function*() {
  const repository = yield* WebhookEndpointsRepository
  const transactions = yield* Transactions
  const events = yield* EventLog
  return {
    /**
     * A resend asked for now: an endpoint whose circuit is open gets its trial attempt now rather
     * than at the end of its cool-down (up to 30 minutes), so a merchant who fixed the receiver sees
     * the resend go out. Its failure reopens the circuit as any trial's would.
     */
    trialNow: (endpointId: string, at: DateTime.Utc) =>
      transactions.run(Effect.gen(function*() {
        const health = yield* repository.findHealth(endpointId, { forUpdate: true })
        if (Option.isNone(health) || health.value.circuitOpenUntil === null || !DateTime.lessThan(at, health.value.circuitOpenUntil)) return
        yield* repository.saveHealth(endpointId, { ...health.value, circuitOpenUntil: at })
      })),
    /**
     * Records how an attempt to an active endpoint went. `known` is its health as the attempt read
     * it: an attempt that changes nothing of it (a quick success on an endpoint known healthy and
     * at its most in flight) writes nothing, so a healthy endpoint costs no write.
     */
    observe: (tenant: Tenant, endpointId: string, verdict: AttemptVerdict, known: EndpointHealth) =>
      Effect.gen(function*() {
        const policy = yield* WebhookDeliveryPolicy
        const at = yield* now
        if (sameHealth(nextHealth(known, verdict, at, policy).health, known)) return
        yield* transactions.run(Effect.gen(function*() {
          const health = yield* repository.findHealth(endpointId, { forUpdate: true })
          if (Option.isNone(health)) return
          const next = nextHealth(health.value, verdict, at, policy)
          if (sameHealth(next.health, health.value) && !next.disable) return
          yield* repository.saveHealth(endpointId, next.health)
          if (!next.disable) return
          const endpoint = yield* repository.find(tenant, endpointId)
          if (Option.isNone(endpoint) || endpoint.value.status !== "active") return
          const disabled = new WebhookEndpoint({ ...endpoint.value, status: "disabled", updated_at: at })
          yield* repository.update(tenant, disabled)
          yield* events.record(tenant, { type: "webhook_endpoint.disabled", object: disabled })
          yield* Effect.logWarning("A webhook endpoint failed for days and was disabled").pipe(
            Effect.annotateLogs({ endpoint: endpointId, organization: tenant.organizationId })
          )
        }))
      })
  }
})
