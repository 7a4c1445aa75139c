import { describe, expect, it } from "vitest"
import { failureMessage, PROVIDER_TEXT_LIMIT, providerText } from "../src/domain/providers/FailureMessages.js"

describe("failure messages", () => {
  it("gives each normalized code our own sentence, and a code we do not describe a generic one", () => {
    expect(failureMessage("insufficient_funds")).toBe("The card has insufficient funds.")
    expect(failureMessage("provider_unavailable")).toBe("The payment provider could not be reached.")
    expect(failureMessage("<script>")).toBe("The payment provider refused the request.")
  })

  it("keeps the first KiB of a PSP's text, cut between characters, with NUL replaced for the database", () => {
    expect(providerText("short\u0000text")).toBe("short\uFFFDtext")
    const page = "x".repeat(PROVIDER_TEXT_LIMIT - 1) + "é" + "tail"
    const kept = providerText(page)
    // "é" takes two bytes: with 1 023 before it, it would end past the KiB, so the text stops before it.
    expect(kept).toBe("x".repeat(PROVIDER_TEXT_LIMIT - 1))
    expect(new TextEncoder().encode(providerText("€".repeat(2_000))).length).toBe(1_023)
    expect(providerText("a".repeat(5_000)).length).toBe(PROVIDER_TEXT_LIMIT)
  })

  it("keeps no card number a PSP's error page echoed back, in any grouping", () => {
    const echoed = "502 Bad Gateway: card[number]=4242424242424242&card[exp_month]=12 or 4242 4242 4242 4242 / 4000-0566-5566-5556"
    const kept = providerText(echoed)
    expect(kept).not.toMatch(/4242\D?4242\D?4242\D?4242|4000\D?0566/)
    expect(kept).toContain("502 Bad Gateway")
    // Digits that fail Luhn (an order number, a timestamp) stay.
    expect(providerText("order 1234567890123 at 1795000000000")).toBe("order 1234567890123 at 1795000000000")
  })
})
