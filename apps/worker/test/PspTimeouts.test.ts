import { describe, expect, it } from "@effect/vitest"
import { applicationLayer, memoryStorage } from "@orchestrator/application"
import { type Currency, Jobs, KeyMaterial, Organizations, Payments, PaymentsRepository, ProviderConnections, type Tenant } from "@orchestrator/core"
import { fakeAdyen, fakeStripe } from "@orchestrator/testing"
import { Effect, Fiber, Option, TestClock } from "effect"
import * as net from "node:net"

/** The application on in-memory storage with the real connectors, as the worker runs it. */
const testLayer = () =>
  applicationLayer({
    storage: memoryStorage,
    keys: KeyMaterial.fromMasterSecret(new Uint8Array(32).fill(5)),
    publicUrl: "http://orchestrator.test",
    // The fake PSPs listen on this machine.
    privateAddresses: "allow"
  })

const reconcilePayments = Effect.flatMap(Jobs, (jobs) => jobs.find((job) => job.name === "reconcile-payments")!.run)

const tenantWith = (connection: { name: string; type: string; base_url: string; credentials: Record<string, string> }) =>
  Effect.gen(function*() {
    const organization = yield* (yield* Organizations).create(`PSP timeouts ${Math.random()}`)
    const tenant: Tenant = { organizationId: organization.id, livemode: false }
    yield* Effect.orDie((yield* ProviderConnections).create(tenant, { ...connection, webhook_secret: "whsec_x" }))
    return tenant
  })

/** Waits (on real time, without sleeping) until the fake holds the request it will never answer. */
const untilHung = (hung: () => number) =>
  Effect.promise(async () => {
    while (hung() === 0) await new Promise((resolve) => setImmediate(resolve))
  })

describe("a PSP that does not answer in time (TestClock)", () => {
  it.scoped("a PSP that refuses the connection: nothing was sent, so the forced payment is tried once more there, then fails as provider_unavailable", () =>
    Effect.gen(function*() {
      const closedPort = yield* Effect.promise(() =>
        new Promise<number>((resolve) => {
          const probe = net.createServer().listen(0, "127.0.0.1", () => {
            const { port } = probe.address() as net.AddressInfo
            probe.close(() => resolve(port))
          })
        })
      )
      const tenant = yield* tenantWith({
        name: "stripe_down",
        type: "stripe",
        base_url: `http://127.0.0.1:${closedPort}`,
        credentials: { secret_key: "sk_test_down" }
      })
      const failed = yield* Effect.flip((yield* Payments).create(tenant, {
        amount: 2000,
        currency: "EUR" as Currency,
        payment_method: { type: "card", token: "pm_card_visa" },
        provider: "stripe_down"
      }))
      if (failed._tag !== "PaymentRefused") return expect.fail(failed._tag)
      expect(failed.code).toBe("provider_unavailable")
      // Our message only: what did or did not answer behind a base_url is for the attempt record.
      expect(failed.message).toBe("The payment provider could not be reached.")
      const repository = yield* PaymentsRepository
      const said = yield* repository.providerMessageOf(tenant, failed.payment.attempts[1]!.id)
      expect(Option.getOrThrow(said)).toContain("ECONNREFUSED")
      expect(failed.payment.attempts.map((attempt) => attempt.error_code)).toEqual(["provider_unavailable", "provider_unavailable"])
    }).pipe(Effect.provide(testLayer())))

  it.scoped("the default 30 s deadline holds for a caller that cannot be interrupted, as an API request runs (finding: 71 s)", () =>
    Effect.gen(function*() {
      const fake = yield* fakeStripe
      const tenant = yield* tenantWith({
        name: "stripe_default",
        type: "stripe",
        base_url: fake.url,
        credentials: { secret_key: "sk_test_defaulttimeout" }
      })
      fake.injectFault("hang")
      const pending = yield* Effect.fork(Effect.uninterruptible((yield* Payments).create(tenant, {
        amount: 2000,
        currency: "EUR" as Currency,
        payment_method: { type: "card", token: "pm_card_visa" },
        provider: "stripe_default"
      })))
      yield* untilHung(fake.hungRequests)
      yield* TestClock.adjust("29 seconds")
      expect(pending.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 second")
      // Before the fix, the timeout waited for the PSP that never answers: this join never returned.
      const stuck = yield* Fiber.join(pending)
      expect([stuck.status, stuck.attempts.map((attempt) => [attempt.status, attempt.error_code])])
        .toEqual(["processing", [["unknown", "timeout"]]])
    }).pipe(Effect.provide(testLayer())))

  for (const psp of ["stripe", "adyen"] as const) {
    it.scoped(`${psp}: the payment stays processing, and reconciliation settles it by the same idempotency key, charged once`, () =>
      Effect.gen(function*() {
        const fake = psp === "stripe" ? yield* fakeStripe : yield* fakeAdyen
        const tenant = yield* tenantWith(
          psp === "stripe"
            ? { name: "stripe_eu", type: "stripe", base_url: fake.url, credentials: { secret_key: "sk_test_timeouts" } }
            : { name: "adyen_eu", type: "adyen", base_url: fake.url, credentials: { api_key: "AQE_x", merchant_account: "FakeMerchantECOM" } }
        )
        const payments = yield* Payments
        fake.injectFault("hang")
        const pending = yield* Effect.fork(payments.create(tenant, {
          amount: 2000,
          currency: "EUR" as Currency,
          payment_method: { type: "card", token: psp === "stripe" ? "pm_card_visa" : "visa_ok" },
          provider: `${psp}_eu`
        }))
        yield* untilHung(fake.hungRequests)
        yield* TestClock.adjust("30 seconds")
        const stuck = yield* Fiber.join(pending)
        expect([stuck.status, stuck.attempts.map((attempt) => [attempt.status, attempt.error_code])])
          .toEqual(["processing", [["unknown", "timeout"]]])

        // The first point of the schedule, 5 s after the call gave up: the worker sends the same request again.
        expect(yield* reconcilePayments).toBe(0)
        yield* TestClock.adjust("5 seconds")
        expect(yield* reconcilePayments).toBe(1)
        const settled = yield* payments.retrieve(tenant, stuck.id)
        expect([settled.status, settled.amount_captured]).toEqual(["succeeded", 2000])
        const key = stuck.attempts[0]!.id
        expect("chargesFor" in fake ? fake.chargesFor(key) : fake.paymentsFor(key)).toBe(1)
      }).pipe(Effect.provide(testLayer())))
  }
})
