import { describe, expect, it } from "@effect/vitest"
import { paymentMarkers } from "../src/browser/PaymentMarkers.js"

const of = (amount: number, amount_captured: number, amount_refunded: number) => paymentMarkers({ amount, amount_captured, amount_refunded })

describe("a payment's dashboard markers, read from its amounts", () => {
  it("captured 40 of 50 and refunded 40: partially captured and refunded, not a plain success", () => {
    expect(of(5000, 4000, 4000)).toEqual(["partially_captured", "refunded"])
  })

  it("a full capture refunded in part, or in full", () => {
    expect(of(5000, 5000, 1000)).toEqual(["partially_refunded"])
    expect(of(5000, 5000, 5000)).toEqual(["refunded"])
  })

  it("a partial capture with nothing given back", () => {
    expect(of(5000, 2500, 0)).toEqual(["partially_captured"])
  })

  it("nothing to mark: fully captured, or not captured at all (authorized, failed, canceled)", () => {
    expect(of(5000, 5000, 0)).toEqual([])
    expect(of(5000, 0, 0)).toEqual([])
  })
})
