import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import * as fc from "fast-check"
import { Currency, currencyCodes, exponentOf } from "../src/domain/Currency.js"
import { Amount, fromDecimalString, MAX_AMOUNT, toDecimalString } from "../src/domain/Money.js"

const decodeAmount = Schema.decodeUnknownEither(Amount)
const decodeCurrency = Schema.decodeUnknownEither(Currency)
const currency = fc.constantFrom(...currencyCodes).map((code) => code as Currency)

describe("Money", () => {
  it("accepts every integer from 1 to 99 999 999 minor units", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: MAX_AMOUNT }), (amount) => {
      expect(decodeAmount(amount)).toEqual(Either.right(amount))
    }))
  })

  it("refuses every number with a fraction, however close to an integer", () => {
    fc.assert(fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (value) => {
      fc.pre(!Number.isInteger(value))
      expect(Either.isLeft(decodeAmount(value))).toBe(true)
    }))
    expect(Either.isLeft(decodeAmount(10.5))).toBe(true)
    expect(Either.isLeft(decodeAmount(0.1 + 0.2))).toBe(true)
  })

  it("refuses out-of-range amounts, non-numbers and numeric strings", () => {
    fc.assert(fc.property(
      fc.oneof(
        fc.integer({ max: 0 }),
        fc.integer({ min: MAX_AMOUNT + 1 }),
        fc.string(),
        fc.constant(Number.NaN),
        fc.constant(Number.POSITIVE_INFINITY),
        fc.constant(null),
        fc.boolean()
      ),
      (value) => {
        expect(Either.isLeft(decodeAmount(value))).toBe(true)
      }
    ))
    expect(Either.isLeft(decodeAmount("1000"))).toBe(true)
  })

  it("knows the ISO 4217 exponent of each currency", () => {
    expect(exponentOf("JPY" as Currency)).toBe(0)
    expect(exponentOf("EUR" as Currency)).toBe(2)
    expect(exponentOf("KWD" as Currency)).toBe(3)
    expect(exponentOf("CLF" as Currency)).toBe(4)
    expect(currencyCodes.length).toBeGreaterThan(150)
  })

  it("accepts only active upper-case ISO codes", () => {
    expect(Either.isRight(decodeCurrency("EUR"))).toBe(true)
    for (const bad of ["eur", "EURO", "XAU", "XXX", "ABC", "", "US"]) {
      expect(Either.isLeft(decodeCurrency(bad))).toBe(true)
    }
  })

  it("writes minor units as an exact decimal string and reads it back", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: MAX_AMOUNT }), currency, (amount, code) => {
      const text = toDecimalString(amount, code)
      const decimals = text.includes(".") ? text.split(".")[1]!.length : 0
      expect(decimals).toBe(exponentOf(code))
      expect(fromDecimalString(text, code)).toBe(amount)
    }))
    expect(toDecimalString(1050, "EUR" as Currency)).toBe("10.50")
    expect(toDecimalString(5, "EUR" as Currency)).toBe("0.05")
    expect(toDecimalString(1050, "JPY" as Currency)).toBe("1050")
    expect(toDecimalString(1050, "KWD" as Currency)).toBe("1.050")
    expect(fromDecimalString("10.505", "EUR" as Currency)).toBeUndefined()
  })
})
