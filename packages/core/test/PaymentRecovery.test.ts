import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Fiber, Layer, Option, TestClock } from "effect"
import type { Currency } from "../src/domain/Currency.js"
import { PaymentPolicy } from "../src/domain/payments/PaymentPolicy.js"
import { PaymentRecovery } from "../src/features/payments/PaymentRecovery.js"
import { Payments } from "../src/features/payments/Payments.js"
import { createTenant, makeTestServices } from "./support/TestServices.js"

const reconcilePass = Effect.flatMap(PaymentRecovery, (recovery) => recovery.jobs.find((job) => job.name === "reconcile-payments")!.run)

/** Another worker process: its own reconciliation job (and workers) over the same storage. */
const secondWorker = Effect.map(
  Layer.build(Layer.fresh(PaymentRecovery.layer)),
  (context) => Context.get(context, PaymentRecovery).jobs.find((job) => job.name === "reconcile-payments")!.run
)

/** Moves the test clock on in small steps until `fiber` is done. */
const runToEnd = <A, E>(fiber: Fiber.RuntimeFiber<A, E>) =>
  Effect.gen(function*() {
    while (Option.isNone(yield* Fiber.poll(fiber))) yield* TestClock.adjust("5 seconds")
    return yield* Fiber.join(fiber)
  })

describe("PaymentRecovery", () => {
  it.effect("a slow reconciliation pass keeps its leases: two workers never send the same payment at once", () => {
    const services = makeTestServices({ tok_slow: ["hang"] })
    return Effect.gen(function*() {
      const tenant = yield* createTenant
      const payments = yield* Payments
      // 20 payments whose PSP never answers: each call, first or resent, takes the full 30 s timeout.
      const created = yield* Effect.fork(Effect.forEach(
        Array.from({ length: 20 }),
        () =>
          payments.create(tenant, {
            amount: 1000,
            currency: "EUR" as Currency,
            payment_method: { type: "card", token: "tok_slow" }
          }),
        { concurrency: "unbounded" }
      ))
      const stuck = yield* runToEnd(created)
      expect(stuck.every((payment) => payment.status === "processing")).toBe(true)
      yield* TestClock.adjust("3 minutes")

      // The first worker takes 4 at a time, 30 s a round: 20 payments would take 150 s, longer than
      // one lease (120 s). A second worker starts while it is still busy.
      const other = yield* secondWorker
      const first = yield* Effect.fork(reconcilePass)
      for (let i = 0; i < 20; i++) yield* TestClock.adjust("5 seconds")
      expect(Option.isNone(yield* Fiber.poll(first))).toBe(true)
      const second = yield* Effect.fork(other)
      const [byFirst, bySecond] = [yield* runToEnd(first), yield* runToEnd(second)]

      expect(byFirst).toBeGreaterThan(0)
      expect(bySecond).toBeGreaterThan(0)
      for (const payment of stuck) {
        const reference = payment.attempts[0]!.id
        const sends = services.psp.sends.filter((send) => send.reference === reference).map((send) => send.at)
        // Resent by a worker at least once...
        expect(sends.length).toBeGreaterThanOrEqual(2)
        // ...and never while another send of it was still waiting for the PSP (30 s each).
        for (let i = 1; i < sends.length; i++) expect(sends[i]! - sends[i - 1]!).toBeGreaterThanOrEqual(30_000)
      }
    }).pipe(
      Effect.scoped,
      Effect.provide(services.layer),
      // Each worker 4 at a time, and room for both on the one connection: what is tested is the leases.
      Effect.provideService(PaymentPolicy, { ...PaymentPolicy.defaultValue(), recoveryWorkers: 4, recoveryShare: { perTenant: 8, perLane: 8 } })
    )
  })
})
