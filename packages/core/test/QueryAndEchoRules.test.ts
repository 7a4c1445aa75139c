import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import * as fc from "fast-check"
import { DecimalInteger } from "../src/domain/DecimalInteger.js"
import { ECHO_LIMIT, echoed } from "../src/domain/EchoedText.js"

const decodeLimit = Schema.decodeUnknownEither(DecimalInteger(1, 100))

describe("DecimalInteger", () => {
  it("takes every whole number in range written as plain digits", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 100 }), (limit) => {
      expect(decodeLimit(String(limit))).toEqual(Either.right(limit))
    }))
  })

  it("refuses what Number() would read as a number but a client did not mean: hex, exponents, signs, padding", () => {
    for (const text of ["0x10", "1e1", "+5", "005", "05", " 5", "5 ", "5.0", "-1", "0", "101", "", "Infinity", "0b1", "1_0"]) {
      expect(Either.isLeft(decodeLimit(text)), text).toBe(true)
    }
  })
})

describe("echoed", () => {
  it("keeps a value of up to 100 characters whole and cuts a longer one to 100 with an ellipsis", () => {
    fc.assert(fc.property(fc.string({ maxLength: 300, unit: "grapheme-ascii" }), (value) => {
      const echo = echoed(value)
      if (value.length <= ECHO_LIMIT) expect(echo).toBe(value)
      else expect([echo.length, echo.endsWith("…"), value.startsWith(echo.slice(0, -1))]).toEqual([ECHO_LIMIT, true, true])
    }))
  })

  it("never leaves half a surrogate pair at the cut", () => {
    for (let offset = 0; offset < 4; offset++) {
      const echo = echoed(`${"a".repeat(95 + offset)}${"💳".repeat(20)}`)
      expect(echo).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/)
      expect(echo.length).toBeLessThanOrEqual(ECHO_LIMIT)
    }
  })
})
