import { Effect } from "effect"
import * as fc from "fast-check"
import { createHmac } from "node:crypto"
import { describe, expect, it } from "vitest"
import { hmacSha256 } from "../src/domain/HmacSha256.js"
import { KeyMaterial } from "../src/ports/KeyMaterial.js"

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex")
const bytesOf = (text: string) => new TextEncoder().encode(text)

describe("HMAC-SHA-256", () => {
  it("matches RFC 4231's test vectors, a key longer than a block included", () => {
    expect(hex(hmacSha256(new Uint8Array(20).fill(0x0b), bytesOf("Hi There"))))
      .toBe("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    expect(hex(hmacSha256(bytesOf("Jefe"), bytesOf("what do ya want for nothing?"))))
      .toBe("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    expect(hex(hmacSha256(new Uint8Array(131).fill(0xaa), bytesOf("Test Using Larger Than Block-Size Key - Hash Key First"))))
      .toBe("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
  })

  it("agrees with Node's implementation on any key and message", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 150 }), fc.uint8Array({ maxLength: 300 }), (key, message) => {
        expect(hex(hmacSha256(key, message))).toBe(createHmac("sha256", key).update(message).digest("hex"))
      }),
      { numRuns: 300 }
    )
  })

  it("signs return URLs as Web Crypto's key of the same derivation did, so URLs handed out before still verify", async () => {
    const master = new Uint8Array(32).fill(7)
    const { returnSigning } = await Effect.runPromise(Effect.provide(KeyMaterial, KeyMaterial.fromMasterSecret(master)))
    const base = await crypto.subtle.importKey("raw", master, "HKDF", false, ["deriveKey"])
    const webCryptoKey = await crypto.subtle.deriveKey(
      { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(32), info: bytesOf("orchestrator payment return v1") },
      base,
      { name: "HMAC", hash: "SHA-256", length: 256 },
      false,
      ["sign"]
    )
    const message = bytesOf("payment-return v1\npay_1\norg_1\ntest\n1800000000")
    expect(hex(hmacSha256(returnSigning, message))).toBe(hex(new Uint8Array(await crypto.subtle.sign("HMAC", webCryptoKey, message))))
  })
})
