import { describe, expect, it } from "@effect/vitest"
import { decodeUrlPart, findUnstorable, isStorable, placeName } from "../src/domain/UnstorableText.js"

describe("UnstorableText", () => {
  it("tells NUL and half surrogate pairs from text, whole pairs included", () => {
    expect(["", "plain", "💳", "é\u00a0", "\ufffd"].map(isStorable)).toEqual([true, true, true, true, true])
    expect(["\u0000", "a\u0000", "\ud800", "x\udc00", "\ud83d"].map(isStorable)).toEqual([false, false, false, false, false])
  })

  it("decodes URL parts to storable text, and refuses NUL, encoded surrogates and bytes that are not UTF-8", () => {
    expect(decodeUrlPart("pay_%F0%9F%92%B3", false)).toBe("pay_💳")
    expect(decodeUrlPart("a+b%20c", true)).toBe("a b c")
    expect(decodeUrlPart("a+b", false)).toBe("a+b")
    // Malformed escapes stay as they are, as URL parsers keep them.
    expect(decodeUrlPart("%ZZ%4", false)).toBe("%ZZ%4")
    for (const bad of ["%00", "a%00b", "%ED%A0%80", "%ED%BF%BF", "%FF", "%C0%80", "%E2%82", "%F4%90%80%80"]) {
      expect([bad, decodeUrlPart(bad, true)]).toEqual([bad, undefined])
    }
  })

  it("finds the first unstorable string of a JSON document, by the member that holds it", () => {
    expect(findUnstorable({ a: "ok", b: [1, "fine", { c: "x\u0000" }] })).toEqual({ path: ["b", 2, "c"], inKey: false })
    expect(findUnstorable({ metadata: { ["k\ud800"]: "v" } })).toEqual({ path: ["metadata"], inKey: true })
    expect(findUnstorable("\udfff")).toEqual({ path: [], inKey: false })
    expect(findUnstorable({ a: ["💳", null, 1, true] })).toBeUndefined()
    expect([placeName(["b", 2, "c"]), placeName([])]).toEqual(["b.2.c", null])
  })
})
