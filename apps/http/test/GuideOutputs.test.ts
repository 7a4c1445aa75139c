import { describe, expect, it } from "vitest"
import { jsonValuesIn, matchesLine, matchesWithin, readExpected, unshown } from "./support/GuideOutputs.js"

const reused = { error: { type: "idempotency_error", code: "idempotency_key_reused", message: "…", param: null, request_id: "req_1" } }

describe("what a guide shows a command prints, against what it printed", () => {
  it("reads a shortened answer and holds each field it writes to the answer's", () => {
    const right = readExpected(`{"error":{"type":"idempotency_error","code":"idempotency_key_reused",…}}`)!
    const wrong = readExpected(`{"error":{"type":"invalid_request_error","code":"idempotency_key_reused",…}}`)!
    expect(matchesWithin(right, reused)).toBe(true)
    expect(matchesWithin(wrong, reused)).toBe(false)
  })

  it("takes … for the rest of a string, of an object, of a list, and of words inside it", () => {
    const list = { object: "list", data: [{ id: "pay_01ABC" }, { id: "pay_01ABD" }], has_more: true, next_cursor: "pay_01ABD" }
    expect(matchesWithin(readExpected(`{"object":"list","data":[…newest first],"has_more":true,"next_cursor":"pay_…"}`)!, list)).toBe(true)
    expect(matchesWithin(readExpected(`{"object":"list","has_more":false,…}`)!, list)).toBe(false)
    expect(matchesWithin(readExpected(`{"next_cursor":"ref_…"}`)!, list)).toBe(false)
  })

  it("finds a jq projection inside the answer, and reads members written without braces", () => {
    const payment = { id: "pay_1", status: "requires_action", next_action: { type: "redirect", url: "http://x/sandbox/3ds/ch_1" } }
    expect(matchesWithin(readExpected(`"status": "requires_action", "next_action": {"type": "redirect", "url": "http://x/sandbox/3ds/ch_…"}`)!, payment))
      .toBe(true)
    expect(matchesWithin(readExpected(`{"type": "redirect"}`)!, { data: [payment] })).toBe(true)
  })

  it("reads the value a line begins with and leaves the words after it; words alone are no value", () => {
    expect(readExpected(`{"queued": 0}: nothing is exhausted yet`)).toEqual({ kind: "object", entries: [["queued", { kind: "literal", value: 0 }]] })
    expect(readExpected("Receiving webhooks on http://localhost:4242/hooks")).toBeUndefined()
  })

  it("matches printed lines with … for anything, and finds JSON printed over several lines", () => {
    expect(matchesLine("payment.succeeded pay_… (succeeded) evt_…", "payment.succeeded pay_01 (succeeded) evt_02")).toBe(true)
    expect(matchesLine("payment.succeeded pay_… (succeeded) evt_…", "payment.failed pay_01 (failed) evt_02")).toBe(false)
    expect(jsonValuesIn(`{\n  "code": "insufficient_funds",\n  "payment_status": "failed"\n}\ntrue\n`)).toEqual([
      { code: "insufficient_funds", payment_status: "failed" }
    ])
  })

  it("names the guide's line of each thing shown that the block did not print", () => {
    const outputs = new Map([[10, { printed: "", answers: [JSON.stringify(reused)] }]])
    const shown = [{ block: 10, line: 14, lines: [`{"error":{"type":"invalid_request_error",…}}`] }]
    expect(unshown(shown, outputs, "http://127.0.0.1:1")).toEqual([expect.stringMatching(/^line 14: shows/)])
  })
})
