import * as fc from "fast-check"
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { sha256Hex } from "../src/domain/Sha256.js"

const reference = (text: string) => createHash("sha256").update(text, "utf8").digest("hex")

describe("SHA-256", () => {
  it("matches the published test vectors", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    expect(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))
      .toBe("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  })

  it("agrees with Node's implementation on any text, across block boundaries and non-ASCII", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 300 }), (text) => {
        expect(sha256Hex(text)).toBe(reference(text))
      }),
      { numRuns: 500 }
    )
    for (let length = 50; length < 140; length++) expect(sha256Hex("x".repeat(length))).toBe(reference("x".repeat(length)))
  })
})
