import { Clock, Context, Effect, Layer, Option } from "effect"
import { RateLimited } from "../../domain/limits/LimitErrors.js"
import type { Tenant } from "../../domain/Tenant.js"
import { OrganizationsRepository } from "../../ports/OrganizationsRepository.js"
import { RateLimiter } from "../../ports/RateLimiter.js"
import { countWith, rateLimitedTotal } from "../observability/ServiceMetrics.js"

/** Requests per second per API key when the organization sets nothing (decisions §13). */
export class RateLimitDefaults extends Context.Reference<RateLimitDefaults>()("core/RateLimitDefaults", {
  defaultValue: () => ({ live: 100, test: 25 })
}) {}

/** An organization's own limits are read again at most this often, in each process. */
const SETTINGS_TTL_MS = 10_000

/** The rate limit of each API key: the organization's own figure for the mode, else the default. */
export class RateLimits extends Context.Tag("core/RateLimits")<RateLimits, {
  readonly limitOf: (tenant: Tenant) => Effect.Effect<number>
  readonly check: (tenant: Tenant, keyId: string) => Effect.Effect<void, RateLimited>
}>() {
  static readonly layer = Layer.effect(
    RateLimits,
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      const organizations = yield* OrganizationsRepository
      const defaults = yield* RateLimitDefaults
      const cached = new Map<string, { readonly live: number | null; readonly test: number | null; readonly at: number }>()

      const limitOf = (tenant: Tenant) =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          let settings = cached.get(tenant.organizationId)
          if (settings === undefined || now - settings.at > SETTINGS_TTL_MS) {
            const organization = yield* organizations.find(tenant.organizationId)
            settings = {
              live: Option.match(organization, { onNone: () => null, onSome: (found) => found.rate_limit_live }),
              test: Option.match(organization, { onNone: () => null, onSome: (found) => found.rate_limit_test }),
              at: now
            }
            cached.set(tenant.organizationId, settings)
          }
          return (tenant.livemode ? settings.live : settings.test) ?? (tenant.livemode ? defaults.live : defaults.test)
        })

      return {
        limitOf,
        check: (tenant, keyId) =>
          Effect.gen(function*() {
            const perSecond = yield* limitOf(tenant)
            const decision = yield* limiter.take(keyId, perSecond)
            if (!decision.allowed) {
              yield* countWith(rateLimitedTotal, { mode: tenant.livemode ? "live" : "test" })
              return yield* new RateLimited({ perSecond, retryAfterMs: decision.retryAfterMs })
            }
          })
      }
    })
  )
}
