import { Effect, Either } from "effect"
import * as fc from "fast-check"
import { createHmac } from "node:crypto"
import { describe, expect, it } from "vitest"
import { signatureHeader, verifySignature } from "../src/domain/webhooks/WebhookSignature.js"

const bytesOf = (text: string) => new TextEncoder().encode(text)
const nodeSignature = (secret: string, t: number, body: string) => createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")

describe("the webhook signature a receiver checks", () => {
  it("is Node's hex HMAC-SHA256 of {t}.{body} under each secret, whatever the body and secrets", () =>
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 3000 }),
        fc.array(fc.string({ minLength: 1, maxLength: 90 }), { minLength: 1, maxLength: 2 }),
        fc.integer({ min: 1_000_000_000, max: 4_000_000_000 }),
        (body, secrets, t) => {
          const header = Effect.runSync(signatureHeader(secrets, t, bytesOf(body)))
          expect(header).toBe([`t=${t}`, ...secrets.map((secret) => `v1=${nodeSignature(secret, t, body)}`)].join(","))
        }
      ),
      { numRuns: 200 }
    ))

  it("verifies what it signs, and refuses a changed body, another secret and a stale time", () => {
    const body = bytesOf(JSON.stringify({ id: "evt_1", type: "payment.succeeded" }))
    const secret = "whsec_TESTSECRET0123456789ABCDEFGHJK"
    const header = Effect.runSync(signatureHeader([secret], 1_800_000_000, body))
    const check = (options: { body?: Uint8Array; secret?: string; now?: number }) =>
      Effect.runSync(Effect.either(verifySignature({
        header,
        body: options.body ?? body,
        secrets: [options.secret ?? secret],
        nowSeconds: options.now ?? 1_800_000_010
      })))
    const reasonOf = (outcome: ReturnType<typeof check>) => Either.isLeft(outcome) ? outcome.left.reason : "accepted"
    expect(check({})).toEqual(Either.right(1_800_000_000))
    expect(reasonOf(check({ body: bytesOf("{}") }))).toBe("mismatch")
    expect(reasonOf(check({ secret: "whsec_other" }))).toBe("mismatch")
    expect(reasonOf(check({ now: 1_800_001_000 }))).toBe("stale")
  })
})
