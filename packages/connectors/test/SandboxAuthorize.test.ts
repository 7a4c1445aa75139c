import { describe, expect, it } from "@effect/vitest"
import { AuthorizationOutcome } from "@orchestrator/core"
import { Effect } from "effect"
import { authorizeRequest, BASE_URL, chargeOf, sandbox, withLedger } from "./fixtures.js"
import { pspIdOf, visa } from "./sandboxCalls.js"

describe("SandboxConnector", () => {
  describe("authorize: test tokens decide the outcome", () => {
    it.effect("tok_visa charges the card and reports its details", () =>
      withLedger(Effect.gen(function*() {
        const { connector, ledger } = yield* sandbox()
        const outcome = yield* connector.authorize(authorizeRequest("tok_visa"))
        expect(outcome).toMatchObject({ _tag: "Authorized", captured: true, card: visa })
        const id = pspIdOf(outcome)
        expect(id).toMatch(/^ch_[0-9A-Z]{30}$/)

        const stored = yield* chargeOf(id)
        expect(stored).toMatchObject({
          connectionId: "pcn_test",
          reference: "att_1",
          merchantReference: "pay_1",
          amount: 1050,
          currency: "EUR",
          status: "succeeded",
          amountCaptured: 1050,
          amountRefunded: 0
        })
        expect(yield* ledger.countCharges("pay_1")).toBe(1)
      })))

    it.effect("other approving tokens report their own card", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        expect(yield* connector.authorize(authorizeRequest("tok_mastercard", { reference: "att_mc" }))).toMatchObject({
          _tag: "Authorized",
          card: { brand: "mastercard", last4: "4444", country: "US" }
        })
        expect(yield* connector.authorize(authorizeRequest("tok_visa_fr", { reference: "att_fr" }))).toMatchObject({
          _tag: "Authorized",
          card: { brand: "visa", last4: "0003", country: "FR" }
        })
      })))

    const refusals = [
      { token: "tok_chargeDeclined", code: "card_declined", retryable: false, last4: "0002" },
      { token: "tok_insufficientFunds", code: "insufficient_funds", retryable: false, last4: "9995" },
      { token: "tok_processingError", code: "processing_error", retryable: true, last4: "0119" }
    ] as const

    for (const { code, last4, retryable, token } of refusals) {
      it.effect(`${token} is refused with ${code} (retryable: ${retryable})`, () =>
        withLedger(Effect.gen(function*() {
          const { connector, ledger } = yield* sandbox()
          const outcome = yield* connector.authorize(authorizeRequest(token))
          expect(outcome).toMatchObject({
            _tag: "Refused",
            code,
            retryable,
            card: { brand: "visa", last4, country: "US" }
          })
          expect(outcome._tag === "Refused" && outcome.message.length > 0).toBe(true)
          const stored = yield* chargeOf(pspIdOf(outcome))
          expect([stored.status, stored.failureCode, stored.amountCaptured]).toEqual(["failed", code, 0])
          // A refused charge moved no money.
          expect(yield* ledger.countCharges("pay_1")).toBe(0)
        })))
    }

    it.effect("tok_threeDSecureRequired asks for a challenge on the sandbox's 3DS page", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const outcome = yield* connector.authorize(authorizeRequest("tok_threeDSecureRequired"))
        const id = pspIdOf(outcome)
        expect(outcome).toEqual(AuthorizationOutcome.ActionRequired({
          pspPaymentId: id,
          redirectUrl: `${BASE_URL}/sandbox/3ds/${id}`,
          card: { brand: "visa", last4: "3184", country: "US" }
        }))
        expect((yield* chargeOf(id)).status).toBe("requires_action")
      })))

    it.effect("an unknown token is refused as invalid_payment_method with no card details", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const outcome = yield* connector.authorize(authorizeRequest("tok_nope"))
        expect(outcome).toMatchObject({
          _tag: "Refused",
          code: "invalid_payment_method",
          retryable: false,
          card: { brand: null, last4: null, country: null }
        })
        expect(outcome._tag === "Refused" ? outcome.message : "").toContain("tok_nope")
      })))

    it.effect("capture: false only authorizes", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const outcome = yield* connector.authorize(authorizeRequest("tok_visa", { capture: false }))
        expect(outcome).toMatchObject({ _tag: "Authorized", captured: false, card: visa })
        const stored = yield* chargeOf(pspIdOf(outcome))
        expect([stored.status, stored.amountCaptured]).toEqual(["authorized", 0])
      })))
  })

  describe("authorize: idempotency by reference", () => {
    it.effect("the same reference sent twice returns the same outcome and charges once", () =>
      withLedger(Effect.gen(function*() {
        const { connector, ledger } = yield* sandbox()
        const first = yield* connector.authorize(authorizeRequest("tok_visa"))
        const second = yield* connector.authorize(authorizeRequest("tok_visa"))
        expect(second).toEqual(first)
        expect(yield* ledger.countCharges("pay_1")).toBe(1)
      })))

    it.effect("a replay answers with the original charge even if the request changed", () =>
      withLedger(Effect.gen(function*() {
        const { connector, ledger } = yield* sandbox()
        const first = yield* connector.authorize(authorizeRequest("tok_visa"))
        const replay = yield* connector.authorize(
          authorizeRequest("tok_chargeDeclined", { amount: 99_999, capture: false })
        )
        expect(replay).toEqual(first)
        expect((yield* chargeOf(pspIdOf(first))).amount).toBe(1050)
        expect(yield* ledger.countCharges("pay_1")).toBe(1)
      })))

    it.effect("a declined reference stays declined on replay, under the same charge", () =>
      withLedger(Effect.gen(function*() {
        const { connector } = yield* sandbox()
        const first = yield* connector.authorize(authorizeRequest("tok_chargeDeclined"))
        const second = yield* connector.authorize(authorizeRequest("tok_chargeDeclined"))
        expect(second).toEqual(first)
        expect(first._tag).toBe("Refused")
      })))

    it.effect("a new reference makes a new charge", () =>
      withLedger(Effect.gen(function*() {
        const { connector, ledger } = yield* sandbox()
        const first = yield* connector.authorize(authorizeRequest("tok_visa", { reference: "att_1" }))
        const second = yield* connector.authorize(authorizeRequest("tok_visa", { reference: "att_2" }))
        expect(pspIdOf(second)).not.toBe(pspIdOf(first))
        expect(yield* ledger.countCharges("pay_1")).toBe(2)
      })))

    it.effect("references are scoped to the connection", () =>
      withLedger(Effect.gen(function*() {
        const a = yield* sandbox({}, "pcn_test")
        const b = yield* sandbox({}, "pcn_other")
        const onA = yield* a.connector.authorize(authorizeRequest("tok_visa"))
        const onB = yield* b.connector.authorize(authorizeRequest("tok_visa"))
        expect(pspIdOf(onB)).not.toBe(pspIdOf(onA))
        expect((yield* chargeOf(pspIdOf(onB))).connectionId).toBe("pcn_other")
        expect(yield* a.ledger.countCharges("pay_1")).toBe(2)
      })))
  })
})
