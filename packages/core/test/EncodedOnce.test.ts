import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, FastCheck, Schema } from "effect"
import { Payment, PaymentEncoding } from "../src/domain/payments/Payment.js"

const payments = Arbitrary.make(Payment)
const encode = Schema.encodeSync(Payment)

describe("a payment encoded once per instance", () => {
  it("is exactly what the schema encodes, as an object and as JSON, for any payment", () => {
    FastCheck.assert(
      FastCheck.property(payments, (payment) => {
        expect(PaymentEncoding.encode(payment)).toEqual(encode(payment))
        expect(PaymentEncoding.json(payment)).toBe(JSON.stringify(encode(payment)))
      }),
      { numRuns: 50 }
    )
  })

  it("is made once for an instance and again for a changed copy", () => {
    const [payment] = FastCheck.sample(payments, { numRuns: 1, seed: 7 })
    const first = PaymentEncoding.encode(payment!)
    expect(PaymentEncoding.encode(payment!)).toBe(first)
    const moved = new Payment({ ...payment!, status: payment!.status === "failed" ? "succeeded" : "failed" }, true)
    expect(PaymentEncoding.json(moved)).toBe(JSON.stringify(encode(moved)))
    expect(JSON.parse(PaymentEncoding.json(moved)).status).not.toBe(first.status)
  })
})
