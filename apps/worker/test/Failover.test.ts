import { describe, expect, it } from "@effect/vitest"
import { applicationLayer, memoryStorage } from "@orchestrator/application"
import { SandboxLedger } from "@orchestrator/connectors"
import {
  type CreatePayment,
  type Currency,
  EventsRepository,
  KeyMaterial,
  Organizations,
  Payments,
  ProviderConnections,
  ProviderConnectionsRepository,
  RoutingRules,
  type Tenant
} from "@orchestrator/core"
import { Effect, Option, TestClock } from "effect"

const testLayer = () =>
  applicationLayer({
    storage: memoryStorage,
    keys: KeyMaterial.fromMasterSecret(new Uint8Array(32).fill(4)),
    publicUrl: "http://orchestrator.test"
  })

const payment = (token = "tok_visa", extra: Partial<CreatePayment> = {}): CreatePayment => ({
  amount: 1200,
  currency: "EUR" as Currency,
  payment_method: { type: "card", token },
  ...extra
})

/** An organization routing by rules: everything to `sandbox_b` first, `sandbox_a` (the default) last. */
const routedTenant = Effect.gen(function*() {
  const organizations = yield* Organizations
  const organization = yield* organizations.create(`Routed ${Math.random()}`)
  const tenant: Tenant = { organizationId: organization.id, livemode: false }
  yield* organizations.updateSettings(tenant, { payments_routing: "rules" })
  yield* (yield* RoutingRules).create(tenant, { priority: 1, conditions: {}, action: { provider: "sandbox_b" } })
  return tenant
})

const setSandbox = (tenant: Tenant, name: string, settings: Record<string, unknown>) =>
  Effect.gen(function*() {
    const connection = Option.getOrThrow(yield* (yield* ProviderConnectionsRepository).findByName(tenant, name))
    yield* Effect.orDie((yield* ProviderConnections).update(tenant, connection.id, { settings }))
  })

const connectionNamed = (tenant: Tenant, name: string) =>
  Effect.map(Effect.flatMap(ProviderConnectionsRepository, (repository) => repository.findByName(tenant, name)), Option.getOrThrow)

const errorEvents = (tenant: Tenant) =>
  Effect.map(
    Effect.flatMap(EventsRepository, (events) => events.listRecent(tenant, 1000)),
    (events) => events.filter((event) => event.type === "provider_connection.error")
  )

describe("routing, failover and connection health", () => {
  it.effect("a routed payment fails over from a PSP in outage to the next one: two attempts, one charge", () =>
    Effect.gen(function*() {
      const tenant = yield* routedTenant
      yield* setSandbox(tenant, "sandbox_b", { outage: true })
      const paid = yield* (yield* Payments).create(tenant, payment())
      expect(paid.status).toBe("succeeded")
      expect(paid.provider).toBe("sandbox_a")
      expect(paid.routing).toEqual({ strategy: "rules", rule_id: expect.stringMatching(/^rule_/) })
      expect(paid.attempts.map((attempt) => [attempt.provider, attempt.status, attempt.error_code])).toEqual([
        ["sandbox_b", "failed", "provider_unavailable"],
        ["sandbox_a", "succeeded", null]
      ])
      expect(yield* (yield* SandboxLedger).countCharges(paid.id)).toBe(1)
    }).pipe(Effect.provide(testLayer())))

  it.effect("a processing error is retried once on the same PSP, then fails over; a decline never crosses PSPs", () =>
    Effect.gen(function*() {
      const tenant = yield* routedTenant
      yield* setSandbox(tenant, "sandbox_b", { failure_rate: 1 })
      const payments = yield* Payments
      const paid = yield* payments.create(tenant, payment())
      expect(paid.attempts.map((attempt) => [attempt.provider, attempt.error_code])).toEqual([
        ["sandbox_b", "processing_error"],
        ["sandbox_b", "processing_error"],
        ["sandbox_a", null]
      ])
      expect([paid.status, yield* (yield* SandboxLedger).countCharges(paid.id)]).toEqual(["succeeded", 1])

      yield* setSandbox(tenant, "sandbox_b", {})
      const declined = yield* Effect.flip(payments.create(tenant, payment("tok_chargeDeclined")))
      if (declined._tag !== "PaymentRefused") return expect.fail(declined._tag)
      expect(declined.payment.attempts.map((attempt) => [attempt.provider, attempt.error_code])).toEqual([
        ["sandbox_b", "card_declined"]
      ])
    }).pipe(Effect.provide(testLayer())))

  it.effect("a forced payment never crosses providers, in outage or not", () =>
    Effect.gen(function*() {
      const tenant = yield* routedTenant
      yield* setSandbox(tenant, "sandbox_b", { outage: true })
      const failed = yield* Effect.flip((yield* Payments).create(tenant, payment("tok_visa", { provider: "sandbox_b" })))
      if (failed._tag !== "PaymentRefused") return expect.fail(failed._tag)
      expect([failed.code, failed.payment.routing.strategy]).toEqual(["provider_unavailable", "forced"])
      expect(failed.payment.attempts.map((attempt) => attempt.provider)).toEqual(["sandbox_b", "sandbox_b"])
    }).pipe(Effect.provide(testLayer())))

  it.effect("a failing connection opens its circuit once, is passed over while open, and closes after a successful trial call", () =>
    Effect.gen(function*() {
      const tenant = yield* routedTenant
      const payments = yield* Payments
      yield* setSandbox(tenant, "sandbox_b", { outage: true })
      // Five payments, each failing once on sandbox_b before going to sandbox_a: the fifth opens it.
      for (let i = 0; i < 5; i++) expect((yield* payments.create(tenant, payment())).provider).toBe("sandbox_a")
      const open = yield* connectionNamed(tenant, "sandbox_b")
      expect([open.status, open.consecutive_failures]).toEqual(["error", 5])
      expect(open.last_error).toContain("outage")
      const [opened] = yield* errorEvents(tenant)
      expect(opened!.data.object).toMatchObject({ name: "sandbox_b", status: "error", webhook_url: `http://orchestrator.test/v1/provider-webhooks/${open.id}` })
      expect(JSON.stringify(opened)).not.toContain("whsec_")

      // While open, routing passes it over: one attempt, straight to the default.
      const skipped = yield* payments.create(tenant, payment())
      expect(skipped.attempts.map((attempt) => attempt.provider)).toEqual(["sandbox_a"])
      expect(skipped.routing).toEqual({ strategy: "default", rule_id: null })
      const forced = yield* Effect.flip(payments.create(tenant, payment("tok_visa", { provider: "sandbox_b" })))
      expect(forced._tag).toBe("ProviderNotUsable")

      // After the cool-down, one trial call: it fails, the circuit stays open, and no second event.
      yield* TestClock.adjust("31 seconds")
      const trial = yield* payments.create(tenant, payment())
      expect(trial.attempts.map((attempt) => attempt.provider)).toEqual(["sandbox_b", "sandbox_a"])
      expect((yield* connectionNamed(tenant, "sandbox_b")).status).toBe("error")
      expect(yield* errorEvents(tenant)).toHaveLength(1)
      expect((yield* payments.create(tenant, payment())).attempts.map((attempt) => attempt.provider)).toEqual(["sandbox_a"])

      // The PSP is back: the next trial succeeds, the circuit closes, and routing sends it traffic again.
      yield* setSandbox(tenant, "sandbox_b", {})
      yield* TestClock.adjust("31 seconds")
      const recovered = yield* payments.create(tenant, payment())
      expect([recovered.provider, recovered.attempts.length]).toEqual(["sandbox_b", 1])
      const closed = yield* connectionNamed(tenant, "sandbox_b")
      expect([closed.status, closed.consecutive_failures, closed.last_error]).toEqual(["active", 0, null])
      expect((yield* payments.create(tenant, payment())).provider).toBe("sandbox_b")
      expect(yield* errorEvents(tenant)).toHaveLength(1)
    }).pipe(Effect.provide(testLayer())))
})
