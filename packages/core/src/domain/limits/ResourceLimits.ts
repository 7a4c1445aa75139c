import { Effect } from "effect"
import { type FailureAnswer, ServiceFailure } from "../Failure.js"

/**
 * What one organization may keep of each kind, per mode (test and live are apart, so filling test mode
 * never blocks live). Each kind is read whole on a hot path: every rule on every routed payment (a dry
 * run lists them all), every endpoint on every event's fan-out, every connection on every routing.
 * - routing rules, 200: a routing table far past any merchant's (countries × methods × a few PSPs);
 * - webhook endpoints, 16: what Stripe allows an account per mode;
 * - provider connections, 50: one per PSP account, region and currency entity, with room to spare.
 */
export const RESOURCE_LIMITS = {
  routing_rules: { limit: 200, label: "routing rules" },
  webhook_endpoints: { limit: 16, label: "webhook endpoints" },
  provider_connections: { limit: 50, label: "provider connections" }
} as const

export type LimitedResource = keyof typeof RESOURCE_LIMITS

/** The organization already has as many of these as it may: answered 422 `resource_limit_exceeded`. */
export class ResourceLimitExceeded extends ServiceFailure("ResourceLimitExceeded", {
  kind: "unprocessable",
  codes: ["resource_limit_exceeded"],
  description: `The organization already has as many of these as it may keep in this mode: ` +
    `${RESOURCE_LIMITS.routing_rules.limit} routing rules, ${RESOURCE_LIMITS.webhook_endpoints.limit} webhook ` +
    `endpoints, ${RESOURCE_LIMITS.provider_connections.limit} provider connections`
})<{
  readonly resource: LimitedResource
  readonly limit: number
}> {
  get answer(): FailureAnswer {
    return {
      message: `This organization has reached its limit of ${this.limit} ${RESOURCE_LIMITS[this.resource].label} in this mode. ` +
        "Delete one before creating another."
    }
  }
}

/**
 * Fails when `existing` leaves no room for one more. The caller counts under a lock (the organization's
 * row) in the transaction that inserts, so two creations at once cannot both take the last place.
 */
export const roomForOneMore = (resource: LimitedResource, existing: number): Effect.Effect<void, ResourceLimitExceeded> => {
  const { limit } = RESOURCE_LIMITS[resource]
  return existing < limit ? Effect.void : Effect.fail(new ResourceLimitExceeded({ resource, limit }))
}
