import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Currency } from "../src/domain/Currency.js"
import { RefundOutcome } from "../src/domain/providers/ConnectorOutcomes.js"
import { Payments } from "../src/features/payments/Payments.js"
import { Refunds } from "../src/features/refunds/Refunds.js"
import { createTenant, makeTestServices } from "./support/TestServices.js"

const setup = Effect.gen(function*() {
  const tenant = yield* createTenant
  const payments = yield* Payments
  const payment = yield* payments.create(tenant, {
    amount: 5000,
    currency: "EUR" as Currency,
    payment_method: { type: "card", token: "tok_visa" }
  })
  return { tenant, payment, payments, refunds: yield* Refunds }
})

describe("Refunds", () => {
  it.effect("refunds in parts until nothing is left, and counts every refund on the payment", () => {
    const services = makeTestServices()
    return Effect.gen(function*() {
      const { payment, payments, refunds, tenant } = yield* setup
      const first = yield* refunds.create(tenant, payment.id, { amount: 2000, reason: "requested_by_customer" })
      expect([first.status, first.amount, first.currency, first.reason]).toEqual([
        "succeeded",
        2000,
        "EUR",
        "requested_by_customer"
      ])
      const tooMuch = yield* Effect.flip(refunds.create(tenant, payment.id, { amount: 3001 }))
      expect(tooMuch).toMatchObject({ _tag: "AmountTooLarge", param: "amount", maximum: 3000 })

      const rest = yield* refunds.create(tenant, payment.id, {})
      expect(rest.amount).toBe(3000)
      expect((yield* payments.retrieve(tenant, payment.id)).amount_refunded).toBe(5000)

      const none = yield* Effect.flip(refunds.create(tenant, payment.id, {}))
      expect(none).toMatchObject({ _tag: "PaymentNotRefundable", reason: "fully_refunded" })

      const listed = yield* refunds.list(tenant, { paymentId: payment.id }, { limit: 10, startingAfter: undefined })
      expect(listed.data.map((refund) => refund.id)).toEqual([rest.id, first.id])
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("gives the amount back when the PSP refuses the refund", () => {
    const services = makeTestServices()
    return Effect.gen(function*() {
      const { payment, payments, refunds, tenant } = yield* setup
      services.psp.setRefundOutcome(
        RefundOutcome.Failed({ pspRefundId: "re_x", code: "refund_declined", message: "Declined by issuer." })
      )
      const error = yield* Effect.flip(refunds.create(tenant, payment.id, { amount: 1000 }))
      expect(error._tag).toBe("RefundRefused")
      if (error._tag !== "RefundRefused") return
      expect(error.refund.status).toBe("failed")
      expect(error.refund.failure?.code).toBe("refund_declined")
      expect((yield* payments.retrieve(tenant, payment.id)).amount_refunded).toBe(0)
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("counts a refund the PSP has not confirmed as pending against the balance", () => {
    const services = makeTestServices()
    return Effect.gen(function*() {
      const { payment, payments, refunds, tenant } = yield* setup
      services.psp.setRefundOutcome(RefundOutcome.Pending({ pspRefundId: "re_slow" }))
      const pending = yield* refunds.create(tenant, payment.id, { amount: 4000 })
      expect([pending.status, pending.provider_refund_id]).toEqual(["pending", "re_slow"])
      expect((yield* payments.retrieve(tenant, payment.id)).amount_refunded).toBe(4000)
      const tooMuch = yield* Effect.flip(refunds.create(tenant, payment.id, { amount: 1001 }))
      expect(tooMuch).toMatchObject({ _tag: "AmountTooLarge", maximum: 1000 })
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("refuses refunds of a payment that did not succeed", () => {
    const services = makeTestServices()
    return Effect.gen(function*() {
      const { payments, refunds, tenant } = yield* setup
      const authorized = yield* payments.create(tenant, {
        amount: 100,
        currency: "EUR" as Currency,
        payment_method: { type: "card", token: "tok_visa" },
        capture: false
      })
      const error = yield* Effect.flip(refunds.create(tenant, authorized.id, {}))
      expect(error).toMatchObject({ _tag: "PaymentNotRefundable", reason: "not_succeeded" })
      expect((yield* Effect.flip(refunds.create(tenant, "pay_missing", {})))._tag).toBe("PaymentNotFound")
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("refunds only what was captured after a partial capture", () => {
    const services = makeTestServices()
    return Effect.gen(function*() {
      const { payments, refunds, tenant } = yield* setup
      const authorized = yield* payments.create(tenant, {
        amount: 1000,
        currency: "EUR" as Currency,
        payment_method: { type: "card", token: "tok_visa" },
        capture: false
      })
      yield* payments.capture(tenant, authorized.id, { amount: 600 })
      const refund = yield* refunds.create(tenant, authorized.id, {})
      expect(refund.amount).toBe(600)
    }).pipe(Effect.provide(services.layer))
  })
})
