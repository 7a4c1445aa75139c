import { describe, expect, it } from "vitest"
import { makeId, timeOfId } from "../src/domain/Ids.js"

describe("ids", () => {
  it("carry when they were made, read back to the millisecond, and sort in that order", () => {
    const made = Date.UTC(2026, 10, 29, 6, 11, 15, 123)
    const id = makeId("pay", made)
    expect(timeOfId(id)).toBe(made)
    expect(makeId("pay", made + 1) > id).toBe(true)
  })

  it("read nothing from a string that is not one of ours", () => {
    for (const text of ["pay_doesnotexist", "pay_", "", "whsec_01M8JYVQNV68Q8SG8EJNTB1FEMY07A!"]) expect(timeOfId(text)).toBeUndefined()
  })
})
