import { EVENT_ID_HEADER, SIGNATURE_HEADER, verifyWebhook, WebhookVerificationError } from "@orchestrator/webhook-verify"
import { createHmac } from "node:crypto"
import { describe, expect, it } from "vitest"

const secret = "whsec_TESTSECRET0123456789ABCDEFGHJK"
const body = JSON.stringify({ object: "event", id: "evt_1", type: "payment.succeeded", data: { object: { object: "payment", id: "pay_1" } } })
const now = 1_800_000_000
const sign = (key: string, t: number, payload = body) => createHmac("sha256", key).update(`${t}.${payload}`).digest("hex")

const reasonOf = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason
    throw error
  }
  return "accepted"
}

describe("verifyWebhook", () => {
  it("returns the event of a body signed with the secret, as a string or as bytes", () => {
    const header = `t=${now},v1=${sign(secret, now)}`
    expect(verifyWebhook(body, header, secret, { now: now * 1000 }).id).toBe("evt_1")
    expect(verifyWebhook(Buffer.from(body), header, secret, { now: new Date(now * 1000) }).type).toBe("payment.succeeded")
    expect([SIGNATURE_HEADER, EVENT_ID_HEADER]).toEqual(["service-signature", "service-event-id"])
  })

  it("accepts any one matching v1 during a rotation, and either secret on the receiver's side", () => {
    const header = `t=${now},v1=${sign("whsec_new", now)},v1=${sign(secret, now)}`
    expect(reasonOf(() => verifyWebhook(body, header, secret, { now: now * 1000 }))).toBe("accepted")
    expect(reasonOf(() => verifyWebhook(body, `t=${now},v1=${sign("whsec_new", now)}`, [secret, "whsec_new"], { now: now * 1000 })))
      .toBe("accepted")
  })

  it("refuses what it cannot trust, and says why", () => {
    const good = `t=${now},v1=${sign(secret, now)}`
    expect(reasonOf(() => verifyWebhook(body, undefined, secret, { now: now * 1000 }))).toBe("missing_header")
    expect(reasonOf(() => verifyWebhook(body, "v1=abc", secret, { now: now * 1000 }))).toBe("malformed_header")
    expect(reasonOf(() => verifyWebhook(body, `t=${now},t=${now},v1=aa`, secret, { now: now * 1000 }))).toBe("malformed_header")
    expect(reasonOf(() => verifyWebhook(body, good, secret, { now: (now + 301) * 1000 }))).toBe("timestamp_out_of_tolerance")
    expect(reasonOf(() => verifyWebhook(body, good, secret, { now: (now - 301) * 1000 }))).toBe("timestamp_out_of_tolerance")
    expect(reasonOf(() => verifyWebhook(body.replace("pay_1", "pay_2"), good, secret, { now: now * 1000 }))).toBe("signature_mismatch")
    expect(reasonOf(() => verifyWebhook(body, good, "whsec_other", { now: now * 1000 }))).toBe("signature_mismatch")
    expect(reasonOf(() => verifyWebhook(body, `t=${now},v1=zz`, secret, { now: now * 1000 }))).toBe("signature_mismatch")
    const notJson = "hello"
    expect(reasonOf(() => verifyWebhook(notJson, `t=${now},v1=${sign(secret, now, notJson)}`, secret, { now: now * 1000 })))
      .toBe("invalid_payload")
  })
})
