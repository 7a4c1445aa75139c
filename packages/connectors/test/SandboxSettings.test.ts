import { describe, expect, it } from "@effect/vitest"
import { ConnectorUnavailable } from "@orchestrator/core"
import { Effect, Either, FastCheck as fc, Fiber, Option, Schema, TestClock } from "effect"
import { sandboxDefinition } from "../src/sandbox/SandboxConnector.js"
import { SandboxLedger } from "../src/sandbox/SandboxLedger.js"
import { authorizeRequest, chargeOf, EUR, sandbox, withLedger } from "./fixtures.js"
import { charge, pspIdOf, refund } from "./sandboxCalls.js"

describe("SandboxConnector", () => {
  describe("settings", () => {
    it.effect("outage: every call fails with ConnectorUnavailable and nothing is recorded", () =>
      withLedger(Effect.gen(function*() {
        const healthy = yield* sandbox()
        const id = yield* charge(healthy.connector)
        const { connector, ledger } = yield* sandbox({ outage: true })

        const error = yield* Effect.flip(connector.authorize(authorizeRequest("tok_visa", { reference: "att_down" })))
        expect(error).toBeInstanceOf(ConnectorUnavailable)
        expect(error.reason).toContain("sandbox_a")
        expect(yield* ledger.findChargeByReference("pcn_test", "att_down")).toEqual(Option.none())

        const refundError = yield* Effect.flip(refund(connector, id, 100, "ref_down"))
        expect(refundError._tag).toBe("ConnectorUnavailable")
        expect(yield* ledger.findRefundByReference("pcn_test", "ref_down")).toEqual(Option.none())

        expect((yield* Effect.flip(connector.cancel({ reference: "c", pspPaymentId: id })))._tag)
          .toBe("ConnectorUnavailable")
        expect((yield* Effect.flip(connector.capture({ reference: "c", pspPaymentId: id, amount: 1, currency: EUR })))._tag)
          .toBe("ConnectorUnavailable")
        expect((yield* Effect.flip(connector.syncPayment({ reference: "att_charge", pspPaymentId: null })))._tag)
          .toBe("ConnectorUnavailable")
        expect((yield* Effect.flip(connector.syncRefund({ reference: "ref_down" })))._tag).toBe("ConnectorUnavailable")

        const untouched = yield* chargeOf(id)
        expect([untouched.status, untouched.amountRefunded]).toEqual(["succeeded", 0])
        expect(yield* ledger.countCharges("pay_1")).toBe(1)
      })))

    it.effect("latency_ms delays the answer, but the charge is made before the delay", () =>
      withLedger(Effect.gen(function*() {
        const { connector, ledger } = yield* sandbox({ latency_ms: 500 })
        const fiber = yield* Effect.fork(connector.authorize(authorizeRequest("tok_visa")))

        yield* TestClock.adjust("499 millis")
        expect(yield* Fiber.poll(fiber)).toEqual(Option.none())
        const recorded = yield* ledger.findChargeByReference("pcn_test", "att_1")
        expect(Option.map(recorded, (charge) => charge.status)).toEqual(Option.some("succeeded"))

        yield* TestClock.adjust("1 millis")
        const outcome = yield* Fiber.join(fiber)
        expect(outcome).toMatchObject({ _tag: "Authorized", captured: true })
        expect(pspIdOf(outcome)).toBe(Option.getOrThrow(recorded).id)
      })))

    it.effect("latency_ms: a caller that times out loses the answer, not the charge", () =>
      withLedger(Effect.gen(function*() {
        const { connector, ledger } = yield* sandbox({ latency_ms: 5_000 })
        const fiber = yield* Effect.fork(
          Effect.timeout(connector.authorize(authorizeRequest("tok_visa")), "1 second")
        )
        yield* TestClock.adjust("1 second")
        const error = yield* Effect.flip(Fiber.join(fiber))
        expect(error._tag).toBe("TimeoutException")
        expect(yield* ledger.countCharges("pay_1")).toBe(1)

        // The retry under the same reference finds the charge that was made.
        const retry = yield* Effect.fork(connector.syncPayment({ reference: "att_1", pspPaymentId: null }))
        yield* TestClock.adjust("5 seconds")
        expect(yield* Fiber.join(retry)).toMatchObject({ _tag: "Authorized", captured: true })
      })))

    it.effect("failure_rate: 1 turns every new charge into a retryable processing_error", () =>
      withLedger(Effect.gen(function*() {
        const { connector, ledger } = yield* sandbox({ failure_rate: 1 })
        for (const [index, token] of ["tok_visa", "tok_threeDSecureRequired", "tok_chargeDeclined"].entries()) {
          const outcome = yield* connector.authorize(authorizeRequest(token, { reference: `att_${index}` }))
          expect(outcome).toMatchObject({ _tag: "Refused", code: "processing_error", retryable: true })
        }
        expect(yield* ledger.countCharges("pay_1")).toBe(0)
      })))

    it.effect("failure_rate only affects new charges: a replay keeps its original answer", () =>
      withLedger(Effect.gen(function*() {
        const healthy = yield* sandbox()
        const first = yield* healthy.connector.authorize(authorizeRequest("tok_visa"))
        const failing = yield* sandbox({ failure_rate: 1 })
        expect(yield* failing.connector.authorize(authorizeRequest("tok_visa"))).toEqual(first)
      })))

    it.effect.prop(
      "failure_rate: 0 never injects a failure",
      [fc.string({ minLength: 1, maxLength: 40 })],
      ([reference]) =>
        withLedger(Effect.gen(function*() {
          const { connector } = yield* sandbox({ failure_rate: 0 })
          const outcome = yield* connector.authorize(authorizeRequest("tok_visa", { reference }))
          expect(outcome._tag).toBe("Authorized")
        }))
    )

    it.effect.prop(
      "failure_rate: 0.5 gives a reference the same answer every time, even on a fresh ledger",
      [fc.string({ minLength: 1, maxLength: 40 })],
      ([reference]) =>
        Effect.gen(function*() {
          const once = Effect.gen(function*() {
            const { connector } = yield* sandbox({ failure_rate: 0.5 })
            const first = yield* connector.authorize(authorizeRequest("tok_visa", { reference }))
            const second = yield* connector.authorize(authorizeRequest("tok_visa", { reference }))
            expect(second).toEqual(first)
            return first._tag === "Refused" ? first.code : first._tag
          })
          // A second sandbox knows nothing of the first charge, yet decides the same way.
          expect(yield* withLedger(once)).toBe(yield* withLedger(once))
        })
    )

    it.effect.prop(
      "a reference that fails at some failure_rate also fails at any higher one",
      [fc.string({ minLength: 1, maxLength: 40 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })],
      ([reference, x, y]) =>
        Effect.gen(function*() {
          const [low, high] = x <= y ? [x, y] : [y, x]
          const failsAt = (rate: number) =>
            withLedger(Effect.gen(function*() {
              const { connector } = yield* sandbox({ failure_rate: rate })
              const outcome = yield* connector.authorize(authorizeRequest("tok_visa", { reference }))
              return outcome._tag === "Refused"
            }))
          if (yield* failsAt(low)) expect(yield* failsAt(high)).toBe(true)
        })
    )

    it.effect("failure_rate: 0.5 fails about half of the charges", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox({ failure_rate: 0.5 })
        let refused = 0
        for (let i = 0; i < 1000; i++) {
          const outcome = yield* connector.authorize(authorizeRequest("tok_visa", { reference: `att_${i}` }))
          if (outcome._tag === "Refused") refused++
        }
        expect(refused).toBeGreaterThan(400)
        expect(refused).toBeLessThan(600)
      })))

    it.effect("invalid or unknown settings are refused", () =>
      withLedger(Effect.gen(function*() {
        const definition = sandboxDefinition(yield* SandboxLedger)
        for (
          const settings of [{ latency_ms: -1 }, { latency_ms: 60_001 }, { latency_ms: 3_600_000 }, { failure_rate: 1.5 }, { outage: "yes" }, { latency: 5 }]
        ) {
          expect(Either.isLeft(Schema.decodeUnknownEither(definition.settings)(settings))).toBe(true)
        }
        expect(Either.isRight(Schema.decodeUnknownEither(definition.settings)({ latency_ms: 60_000 }))).toBe(true)
        expect(Schema.decodeUnknownSync(definition.settings)({ latency_ms: 5 })).toEqual({
          latency_ms: 5,
          outage: false,
          failure_rate: 0,
          async_refunds: false,
          refund_delay_ms: 30_000
        })
      })))
  })
})
