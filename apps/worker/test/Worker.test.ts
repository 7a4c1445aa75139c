import { describe, expect, it } from "@effect/vitest"
import { applicationLayer, memoryStorage } from "@orchestrator/application"
import { SandboxLedger } from "@orchestrator/connectors"
import {
  type CreatePayment,
  type Currency,
  IdempotentRequests,
  Jobs,
  KeyMaterial,
  Organizations,
  Payments,
  ProviderConnection,
  ProviderConnectionsRepository,
  Refunds,
  type Tenant
} from "@orchestrator/core"
import { forkAndAdvance } from "@orchestrator/testing"
import { type Duration, Effect, Fiber, Layer, Option, Schema, TestClock } from "effect"
import { WorkerMain } from "../src/main.js"

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

  it.effect("asks about a payment waiting on its customer 1, 2, 5 and 10 minutes after, then every 15, and settles one the customer completed but never came back from", () =>
    Effect.gen(function*() {
      const tenant = yield* tenantWithSandbox
      const payments = yield* Payments
      const ledger = yield* SandboxLedger
      const challenged = yield* payments.create(tenant, payment("tok_threeDSecureRequired"))
      const waiting = yield* payments.create(tenant, payment("tok_threeDSecureRequired"))
      // How many payments each pass asked the PSP about, at each time (minutes:seconds since they began waiting).
      const asked: Array<[string, number]> = []
      const at = (time: string, advance: Duration.DurationInput) =>
        Effect.gen(function*() {
          yield* TestClock.adjust(advance)
          asked.push([time, yield* followUpPayments])
        })
      yield* at("0:55", "55 seconds")
      yield* at("1:05", "10 seconds")
      yield* at("1:35", "30 seconds")
      yield* at("2:05", "30 seconds")
      // The customer passes the challenge at the sandbox at minute 3, then closes the tab before the redirect.
      yield* TestClock.adjust("55 seconds")
      yield* ledger.transitionCharge(challenged.provider_payment_id!, ["requires_action"], { status: "succeeded", amountCaptured: 2000 })
      yield* at("4:35", "95 seconds")
      yield* at("5:05", "30 seconds")
      expect((yield* payments.retrieve(tenant, challenged.id)).status).toBe("succeeded")
      yield* at("10:05", "5 minutes")
      yield* at("20:05", "10 minutes")
      yield* at("25:10", "305 seconds")
      yield* at("40:15", "905 seconds")
      expect(asked).toEqual([
        ["0:55", 0],
        ["1:05", 2],
        ["1:35", 0],
        ["2:05", 2],
        ["4:35", 0],
        ["5:05", 2],
        ["10:05", 1],
        ["20:05", 0],
        ["25:10", 1],
        ["40:15", 1]
      ])
      expect((yield* payments.retrieve(tenant, waiting.id)).status).toBe("requires_action")
      expect(yield* ledger.countCharges(challenged.id)).toBe(1)
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
      yield* idempotent.run({ tenant, key: "k", fingerprint: "f", requestId: null }, { schema: Schema.Struct({}) }, () => Effect.succeed({}))
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
