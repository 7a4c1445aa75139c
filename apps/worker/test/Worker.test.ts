import { describe, expect, it } from "@effect/vitest"
import { applicationLayer, memoryStorage } from "@orchestrator/application/Application"
import { SandboxLedger } from "@orchestrator/connectors/sandbox/SandboxLedger"
import type { Currency } from "@orchestrator/core/domain/Currency"
import type { Tenant } from "@orchestrator/core/domain/Tenant"
import { IdempotentRequests } from "@orchestrator/core/idempotency/IdempotentRequests"
import type { CreatePayment } from "@orchestrator/core/payments/Payment"
import { Payments } from "@orchestrator/core/payments/Payments"
import { Jobs } from "@orchestrator/core/ports/Jobs"
import { ProviderConnection } from "@orchestrator/core/providers/ProviderConnection"
import { ProviderConnectionsRepository } from "@orchestrator/core/providers/ProviderConnectionsRepository"
import { Refunds } from "@orchestrator/core/refunds/Refunds"
import { KeyMaterial } from "@orchestrator/core/tenancy/KeyMaterial"
import { Organizations } from "@orchestrator/core/tenancy/Organizations"
import { forkAndAdvance } from "@orchestrator/testing/ClockSteps"
import { WorkerMain } from "@orchestrator/worker/main"
import { Effect, Fiber, Layer, Option, TestClock } from "effect"

/** The application on in-memory storage with the real sandbox PSP, as the worker runs it. */
const testLayer = () =>
  applicationLayer({
    storage: memoryStorage,
    keys: KeyMaterial.fromMasterSecret(new Uint8Array(32).fill(3)),
    publicUrl: "http://orchestrator.test"
  })

/** One pass of a job, by name, as the worker would run it; how many items it handled. */
const pass = (name: string) =>
  Effect.flatMap(Jobs, (jobs) => {
    const job = jobs.find((candidate) => candidate.name === name)
    return job === undefined ? Effect.dieMessage(`no job ${name}`) : job.run
  })
const reconcilePayments = pass("reconcile-payments")
const reconcileRefunds = pass("reconcile-refunds")
const followUpPayments = pass("follow-up-payments")
const purgeIdempotencyKeys = pass("purge-idempotency-keys")

const payment = (token: string, extra: Partial<CreatePayment> = {}): CreatePayment => ({
  amount: 2000,
  currency: "EUR" as Currency,
  payment_method: { type: "card", token },
  return_url: "https://shop.example/back",
  ...extra
})

const tenantWithSandbox = Effect.gen(function*() {
  const organization = yield* (yield* Organizations).create("Worker Test")
  return { organizationId: organization.id, livemode: false } satisfies Tenant
})

/** Sets the sandbox's fault injection on `sandbox_a`, as an operator would. */
const setSandbox = (tenant: Tenant, settings: Record<string, unknown>) =>
  Effect.gen(function*() {
    const connections = yield* ProviderConnectionsRepository
    const connection = Option.getOrThrow(yield* connections.findByName(tenant, "sandbox_a"))
    yield* connections.update(tenant.organizationId, new ProviderConnection({ ...connection, settings }))
  })

/** A payment whose PSP answer never came: a 60 s latency outlasts the 30 s call timeout. */
const createUnanswered = (tenant: Tenant, token: string) =>
  Effect.gen(function*() {
    yield* setSandbox(tenant, { latency_ms: 60_000 })
    return yield* Fiber.join(yield* forkAndAdvance((yield* Payments).create(tenant, payment(token)), "30 seconds"))
  })

describe("worker jobs", () => {
  it.effect("reconciles a payment whose PSP answer never arrived, without charging again", () =>
    Effect.gen(function*() {
      const tenant = yield* tenantWithSandbox
      const payments = yield* Payments
      const stuck = yield* createUnanswered(tenant, "tok_visa")
      expect([stuck.status, stuck.attempts[0]!.status]).toEqual(["processing", "unknown"])

      // The schedule's first point is 5 s after the call gave up on the PSP: not before.
      yield* setSandbox(tenant, {})
      expect(yield* reconcilePayments).toBe(0)
      yield* TestClock.adjust("5 seconds")
      expect(yield* reconcilePayments).toBe(1)
      const settled = yield* payments.retrieve(tenant, stuck.id)
      expect([settled.status, settled.amount_captured]).toEqual(["succeeded", 2000])
      expect(yield* (yield* SandboxLedger).countCharges(stuck.id)).toBe(1)
      expect(yield* reconcilePayments).toBe(0)
    }).pipe(Effect.provide(testLayer())))

  it.effect("leaves a payment alone while the PSP is still unreachable, and settles it once it is back", () =>
    Effect.gen(function*() {
      const tenant = yield* tenantWithSandbox
      const payments = yield* Payments
      const stuck = yield* createUnanswered(tenant, "tok_chargeDeclined")

      yield* setSandbox(tenant, { outage: true })
      yield* TestClock.adjust("3 minutes")
      expect(yield* reconcilePayments).toBe(1)
      expect((yield* payments.retrieve(tenant, stuck.id)).status).toBe("processing")

      yield* setSandbox(tenant, {})
      yield* TestClock.adjust("3 minutes")
      expect(yield* reconcilePayments).toBe(1)
      const settled = yield* payments.retrieve(tenant, stuck.id)
      expect([settled.status, settled.failure?.code]).toEqual(["failed", "card_declined"])
    }).pipe(Effect.provide(testLayer())))

  it.effect("reconciles a refund the PSP did not answer", () =>
    Effect.gen(function*() {
      const tenant = yield* tenantWithSandbox
      const paid = yield* (yield* Payments).create(tenant, payment("tok_visa"))
      yield* setSandbox(tenant, { latency_ms: 60_000 })
      const refunds = yield* Refunds
      const pending = yield* Effect.fork(refunds.create(tenant, paid.id, { amount: 500 }))
      yield* TestClock.adjust("30 seconds")
      const refund = yield* Fiber.join(pending)
      expect(refund.status).toBe("pending")

      yield* setSandbox(tenant, {})
      yield* TestClock.adjust("2 minutes")
      expect(yield* reconcileRefunds).toBe(1)
      expect((yield* refunds.retrieve(tenant, refund.id)).status).toBe("succeeded")
      expect((yield* (yield* Payments).retrieve(tenant, paid.id)).amount_refunded).toBe(500)
    }).pipe(Effect.provide(testLayer())))

  it.effect("settles a 3D Secure the customer completed but never came back from", () =>
    Effect.gen(function*() {
      const tenant = yield* tenantWithSandbox
      const payments = yield* Payments
      const challenged = yield* payments.create(tenant, payment("tok_threeDSecureRequired"))
      // The customer passes the challenge at the sandbox, then closes the tab before the redirect.
      yield* (yield* SandboxLedger).transitionCharge(challenged.provider_payment_id!, ["requires_action"], {
        status: "succeeded",
        amountCaptured: 2000
      })
      yield* TestClock.adjust("10 minutes")
      expect(yield* followUpPayments).toBe(0)
      yield* TestClock.adjust("6 minutes")
      expect(yield* followUpPayments).toBe(1)
      expect((yield* payments.retrieve(tenant, challenged.id)).status).toBe("succeeded")
    }).pipe(Effect.provide(testLayer())))

  it.effect("releases an uncaptured authorization after 7 days and an abandoned 3D Secure after a day", () =>
    Effect.gen(function*() {
      const tenant = yield* tenantWithSandbox
      const payments = yield* Payments
      const authorized = yield* payments.create(tenant, payment("tok_visa", { capture: false }))
      const challenged = yield* payments.create(tenant, payment("tok_threeDSecureRequired"))

      // Asked about every 15 minutes, still waiting: nothing changes.
      yield* TestClock.adjust("16 minutes")
      expect(yield* followUpPayments).toBe(1)
      expect((yield* payments.retrieve(tenant, challenged.id)).status).toBe("requires_action")

      yield* TestClock.adjust("1 day")
      yield* followUpPayments
      expect((yield* payments.retrieve(tenant, challenged.id)).failure?.code).toBe("action_expired")
      expect((yield* payments.retrieve(tenant, authorized.id)).status).toBe("requires_capture")

      yield* TestClock.adjust("6 days")
      yield* followUpPayments
      const released = yield* payments.retrieve(tenant, authorized.id)
      expect([released.status, released.failure?.code]).toEqual(["canceled", "authorization_expired"])
      const charge = yield* (yield* SandboxLedger).findCharge(released.provider_payment_id!)
      expect(Option.getOrThrow(charge).status).toBe("canceled")
    }).pipe(Effect.provide(testLayer())))

  it.effect("purges idempotency keys after 24 hours, and not before", () =>
    Effect.gen(function*() {
      const tenant = yield* tenantWithSandbox
      const idempotent = yield* IdempotentRequests
      yield* idempotent.execute({ tenant, key: "k", fingerprint: "f" }, Effect.succeed({ status: 201, body: "{}" }))
      yield* TestClock.adjust("23 hours")
      expect(yield* purgeIdempotencyKeys).toBe(0)
      yield* TestClock.adjust("2 hours")
      expect(yield* purgeIdempotencyKeys).toBe(1)
    }).pipe(Effect.provide(testLayer())))

  it.effect("runs the jobs on its own schedule once started", () =>
    Effect.gen(function*() {
      const tenant = yield* tenantWithSandbox
      const payments = yield* Payments
      const stuck = yield* createUnanswered(tenant, "tok_visa")
      yield* setSandbox(tenant, {})

      yield* Layer.build(WorkerMain)
      yield* TestClock.adjust("3 minutes")
      expect((yield* payments.retrieve(tenant, stuck.id)).status).toBe("succeeded")
    }).pipe(Effect.scoped, Effect.provide(testLayer())))
})
