import { expect, layer } from "@effect/vitest"
import type { Currency } from "@orchestrator/core"
import { testConnection, testDatabases } from "@orchestrator/testing"
import { Effect, Layer, Option } from "effect"
import { SandboxLedger } from "../src/sandbox/SandboxLedger.js"
import { SandboxLedgerSql } from "../src/sandbox/SandboxLedgerSql.js"
import { sandboxConnector } from "./fixtures.js"

const EUR = "EUR" as Currency
const connection = testConnection({ id: "pcn_race" })

let sequence = 0
const authorize = (capture: boolean) =>
  Effect.gen(function*() {
    const connector = sandboxConnector(yield* SandboxLedger, connection, "http://test")
    const reference = `att_race_${sequence++}`
    const outcome = yield* connector.authorize({
      reference,
      paymentId: `pay_${reference}`,
      amount: 1000,
      currency: EUR,
      paymentMethod: { type: "card", token: "tok_visa" },
      capture,
      returnUrl: "http://test/return",
      description: null,
      customer: null,
      browser: null,
      offSession: false,
      storedCredential: "none" as const
    })
    if (outcome._tag !== "Authorized") return yield* Effect.dieMessage("expected an authorization")
    return { connector, chargeId: outcome.pspPaymentId, paymentId: `pay_${reference}`, reference }
  })

for (const database of testDatabases()) {
  layer(SandboxLedgerSql.pipe(Layer.provideMerge(database.layer)), { excludeTestServices: true, timeout: "60 seconds" })(
    `sandbox ledger under concurrency on ${database.name}`,
    (it) => {
      it.effect("two refunds racing for the last of a charge: one succeeds, the other is refused", () =>
        Effect.gen(function*() {
          const { chargeId, connector } = yield* authorize(true)
          const outcomes = yield* Effect.all(
            ["re_a", "re_b", "re_c"].map((reference) => connector.refund({ reference, pspPaymentId: chargeId, amount: 600, currency: EUR, reason: null })),
            { concurrency: "unbounded" }
          )
          expect(outcomes.filter((outcome) => outcome._tag === "Succeeded")).toHaveLength(1)
          expect(outcomes.filter((outcome) => outcome._tag === "Failed" && outcome.code === "amount_too_large")).toHaveLength(2)
          const charge = Option.getOrThrow(yield* (yield* SandboxLedger).findCharge(chargeId))
          expect(charge.amountRefunded).toBe(600)
        }))

      it.effect("a capture racing a cancel: exactly one of them wins, and the charge agrees", () =>
        Effect.gen(function*() {
          const { chargeId, connector } = yield* authorize(false)
          const [captured, canceled] = yield* Effect.all([
            connector.capture({ reference: "cap", pspPaymentId: chargeId, amount: 1000, currency: EUR }),
            connector.cancel({ reference: "can", pspPaymentId: chargeId })
          ], { concurrency: "unbounded" })
          const winners = [captured._tag === "Captured", canceled._tag === "Done"].filter(Boolean)
          expect(winners).toHaveLength(1)
          const charge = Option.getOrThrow(yield* (yield* SandboxLedger).findCharge(chargeId))
          expect(charge.status).toBe(captured._tag === "Captured" ? "succeeded" : "canceled")
        }))

      it.effect("the same reference sent concurrently makes one charge", () =>
        Effect.gen(function*() {
          const ledger = yield* SandboxLedger
          const connector = sandboxConnector(ledger, connection, "http://test")
          const request = {
            reference: "att_same",
            paymentId: "pay_same",
            amount: 500,
            currency: EUR,
            paymentMethod: { type: "card", token: "tok_visa" },
            capture: true,
            returnUrl: "http://test/return",
            description: null,
            customer: null,
            browser: null,
            offSession: false,
            storedCredential: "none" as const
          }
          const outcomes = yield* Effect.all(Array.from({ length: 10 }, () => connector.authorize(request)), {
            concurrency: "unbounded"
          })
          expect(new Set(outcomes.map((outcome) => (outcome as { pspPaymentId: string }).pspPaymentId)).size).toBe(1)
          expect(yield* ledger.countCharges("pay_same")).toBe(1)
        }))
    }
  )
}
