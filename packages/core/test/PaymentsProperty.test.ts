import { describe, expect, it } from "@effect/vitest"
import { forkAndAdvance } from "@orchestrator/testing"
import { Effect, Either, Fiber, TestClock, TestContext } from "effect"
import * as fc from "fast-check"
import type { Currency } from "../src/domain/Currency.js"
import type { Payment } from "../src/domain/payments/Payment.js"
import { PaymentStateMachine } from "../src/domain/payments/PaymentStateMachine.js"
import { AuthorizationOutcome, RefundOutcome } from "../src/domain/providers/ConnectorOutcomes.js"
import { RefundStateMachine } from "../src/domain/refunds/RefundStateMachine.js"
import type { StateMachine } from "../src/domain/StateMachine.js"
import { PaymentRecovery } from "../src/features/payments/PaymentRecovery.js"
import { Payments } from "../src/features/payments/Payments.js"
import { Refunds } from "../src/features/refunds/Refunds.js"
import { EventsRepository } from "../src/ports/EventsRepository.js"
import type { Script } from "./support/ScriptedConnector.js"
import { createTenant, makeTestServices } from "./support/TestServices.js"

const card = { brand: "visa", last4: "4242", country: "US" }
const refused = (code: string, retryable: boolean) => AuthorizationOutcome.Refused({ pspPaymentId: null, code, message: code, retryable, card })

const scripts: Record<string, ReadonlyArray<Script>> = {
  tok_declined: [refused("card_declined", false)],
  tok_flaky: [refused("processing_error", true), AuthorizationOutcome.Authorized({ pspPaymentId: "p", captured: true, amountCaptured: 1000, card })],
  tok_down: ["unavailable"],
  tok_3ds: [AuthorizationOutcome.ActionRequired({ pspPaymentId: "p3", redirectUrl: "https://psp/3ds", card })],
  tok_slow: ["hang"]
}

type Command =
  | { readonly _tag: "Create"; readonly token: string; readonly capture: boolean; readonly returnUrl: boolean }
  | { readonly _tag: "Capture"; readonly index: number; readonly amount: number | undefined }
  | { readonly _tag: "Cancel"; readonly index: number }
  | { readonly _tag: "Return"; readonly index: number }
  | { readonly _tag: "PspSettles"; readonly index: number; readonly approve: boolean }
  | { readonly _tag: "Reconcile"; readonly index: number }
  | { readonly _tag: "FollowUp"; readonly index: number }
  | { readonly _tag: "Refund"; readonly index: number; readonly amount: number | undefined }
  | { readonly _tag: "Wait"; readonly minutes: number }
  | { readonly _tag: "RefundsNow"; readonly outcome: "succeed" | "fail" | "stay_pending" }

const index = fc.nat({ max: 5 })
const amount = fc.option(fc.integer({ min: 1, max: 1200 }), { nil: undefined })
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    arbitrary: fc.record({
      _tag: fc.constant("Create" as const),
      token: fc.constantFrom("tok_visa", ...Object.keys(scripts)),
      capture: fc.boolean(),
      returnUrl: fc.boolean()
    }),
    weight: 4
  },
  fc.record({ _tag: fc.constant("Capture" as const), index, amount }),
  fc.record({ _tag: fc.constant("Cancel" as const), index }),
  fc.record({ _tag: fc.constant("Return" as const), index }),
  fc.record({ _tag: fc.constant("PspSettles" as const), index, approve: fc.boolean() }),
  fc.record({ _tag: fc.constant("Reconcile" as const), index }),
  fc.record({ _tag: fc.constant("FollowUp" as const), index }),
  fc.record({ _tag: fc.constant("Refund" as const), index, amount }),
  fc.record({ _tag: fc.constant("Wait" as const), minutes: fc.integer({ min: 1, max: 60 * 24 * 8 }) }),
  fc.record({ _tag: fc.constant("RefundsNow" as const), outcome: fc.constantFrom("succeed" as const, "fail" as const, "stay_pending" as const) })
)

/** The statuses an object's events walk through must be a path of its machine, ending where it is. */
const expectPath = <S extends string>(machine: StateMachine<S, string>, events: ReadonlyArray<string>, current: S) => {
  let state: S | null = null
  for (const type of events) {
    const next = type.slice(machine.name.length + 1) as S
    expect(Either.isRight(machine.move(state, next)), `${machine.name}: ${state} -> ${next} in ${events.join(", ")}`).toBe(true)
    state = next
  }
  expect(state).toBe(current)
}

const runCommands = (commands: ReadonlyArray<Command>) => {
  const services = makeTestServices(scripts)
  return Effect.gen(function*() {
    const tenant = yield* createTenant
    const payments = yield* Payments
    const refunds = yield* Refunds
    const made: Array<Payment> = []
    const pick = (i: number) => made.length === 0 ? undefined : made[i % made.length]!
    // A PSP call may never answer: every step runs with the clock moved past the call timeout.
    const quietly = <A, E>(effect: Effect.Effect<A, E>) => Effect.flatMap(forkAndAdvance(Effect.ignore(effect), "31 seconds"), Fiber.join)

    for (const step of commands) {
      const target = "index" in step ? pick(step.index) : undefined
      switch (step._tag) {
        case "Create": {
          const fiber = yield* forkAndAdvance(
            Effect.either(payments.create(tenant, {
              amount: 1000,
              currency: "EUR" as Currency,
              payment_method: { type: "card", token: step.token },
              capture: step.capture,
              ...(step.returnUrl ? { return_url: "https://shop.example/back" } : {})
            })),
            "31 seconds"
          )
          const result = yield* Fiber.join(fiber)
          const payment = Either.isRight(result) ? result.right : "payment" in result.left ? result.left.payment : undefined
          if (payment !== undefined) made.push(payment)
          break
        }
        case "Capture":
          if (target) yield* quietly(payments.capture(tenant, target.id, { amount: step.amount }))
          break
        case "Cancel":
          if (target) yield* quietly(payments.cancel(tenant, target.id, {}))
          break
        case "Return":
          if (target) yield* quietly(payments.returnFromAction(target.id, services.psp.returnTokenOf(target.id)))
          break
        case "PspSettles": {
          if (!target) break
          const current = yield* payments.retrieve(tenant, target.id)
          services.psp.settleLater(
            current.attempts.at(-1)!.id,
            step.approve
              ? AuthorizationOutcome.Authorized({ pspPaymentId: "late", captured: current.capture, amountCaptured: current.capture ? 1000 : 0, card })
              : refused("authentication_failed", false)
          )
          break
        }
        case "Reconcile":
          if (target) yield* quietly((yield* PaymentRecovery).reconcile({ tenant, paymentId: target.id }))
          break
        case "FollowUp":
          if (target) yield* quietly((yield* PaymentRecovery).followUp({ tenant, paymentId: target.id }))
          break
        case "Refund":
          if (target) yield* quietly(refunds.create(tenant, target.id, { amount: step.amount }))
          break
        case "Wait":
          yield* TestClock.adjust(`${step.minutes} minutes`)
          break
        case "RefundsNow":
          services.psp.setRefundOutcome(
            step.outcome === "succeed"
              ? RefundOutcome.Succeeded({ pspRefundId: "re_ok" })
              : step.outcome === "fail"
              ? RefundOutcome.Failed({ pspRefundId: "re_no", code: "refund_declined", message: "no" })
              : RefundOutcome.Pending({ pspRefundId: "re_wait" })
          )
          break
      }
    }

    const events = yield* (yield* EventsRepository).listRecent(tenant, 10_000)
    const typesOf = (id: string) => events.filter((event) => (event.data.object as { id: string }).id === id).map((event) => event.type).reverse()
    for (const { id } of made) {
      const payment = yield* payments.retrieve(tenant, id)
      expectPath(PaymentStateMachine, typesOf(id), payment.status)
      expect(0 <= payment.amount_refunded && payment.amount_refunded <= payment.amount_captured).toBe(true)
      expect(payment.amount_captured <= payment.amount).toBe(true)
      expect(payment.amount_captured > 0).toBe(payment.status === "succeeded")
      const listed = yield* refunds.list(tenant, { paymentId: id }, { limit: 100, startingAfter: undefined })
      for (const refund of listed.data) expectPath(RefundStateMachine, typesOf(refund.id), refund.status)
      const reserved = listed.data.filter((refund) => refund.status !== "failed").reduce((sum, refund) => sum + refund.amount, 0)
      expect(payment.amount_refunded).toBe(reserved)
    }
  }).pipe(Effect.provide(services.layer), Effect.provide(TestContext.TestContext))
}

describe("payments under any sequence of operations", () => {
  it("only ever move along the state machine, with their events, and keep the amounts consistent", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 25 }), (commands) => Effect.runPromise(runCommands(commands))),
      {
        numRuns: 200,
        // Paths worth checking on every run, whatever the random ones cover.
        examples: [
          [[
            { _tag: "Create", token: "tok_visa", capture: true, returnUrl: false },
            { _tag: "RefundsNow", outcome: "fail" },
            { _tag: "Refund", index: 0, amount: 300 },
            { _tag: "RefundsNow", outcome: "stay_pending" },
            { _tag: "Refund", index: 0, amount: undefined },
            { _tag: "Refund", index: 0, amount: 1 }
          ]],
          [[
            { _tag: "Create", token: "tok_3ds", capture: false, returnUrl: true },
            { _tag: "PspSettles", index: 0, approve: true },
            { _tag: "Wait", minutes: 20 },
            { _tag: "FollowUp", index: 0 },
            { _tag: "Capture", index: 0, amount: 400 },
            { _tag: "Refund", index: 0, amount: undefined }
          ]],
          [[
            { _tag: "Create", token: "tok_slow", capture: true, returnUrl: true },
            { _tag: "PspSettles", index: 0, approve: false },
            { _tag: "Wait", minutes: 5 },
            { _tag: "Reconcile", index: 0 },
            { _tag: "Cancel", index: 0 }
          ]]
        ]
      }
    )
  }, 120_000)
})
