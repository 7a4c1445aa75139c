import { describe, expect, it } from "@effect/vitest"
import { Option } from "effect"
import type { Payment } from "../src/domain/payments/Payment.js"
import { nextProvider } from "../src/domain/payments/PaymentOutcomes.js"
import { DEFAULT_RETRY_DECISIONS } from "../src/domain/payments/PaymentPolicy.js"
import { AuthorizationOutcome } from "../src/domain/providers/ConnectorOutcomes.js"

/** Only what the decision reads: the current provider and who was tried. */
const paymentAfter = (tried: ReadonlyArray<string>) => ({ provider: tried.at(-1)!, attempts: tried.map((provider) => ({ provider })) }) as unknown as Payment

const refused = (code: string) =>
  AuthorizationOutcome.Refused({ pspPaymentId: null, code, message: code, retryable: true, card: { brand: null, last4: null, country: null } })

const next = (code: string, tried: ReadonlyArray<string>, fallbacks: ReadonlyArray<string>) =>
  Option.getOrNull(nextProvider(paymentAfter(tried), refused(code), DEFAULT_RETRY_DECISIONS, fallbacks))

describe("the default retry decisions, as the README's table states them", () => {
  it("provider_unavailable: another PSP at once; the same one once more only when there is none", () => {
    expect(next("provider_unavailable", ["a"], ["b"])).toBe("b")
    expect(next("provider_unavailable", ["a"], [])).toBe("a")
    expect(next("provider_unavailable", ["a", "a"], [])).toBeNull()
  })

  it("processing_error and try_again_later: once more on the same PSP, then another", () => {
    for (const code of ["processing_error", "try_again_later"]) {
      expect(next(code, ["a"], ["b"])).toBe("a")
      expect(next(code, ["a", "a"], ["b"])).toBe("b")
      expect(next(code, ["a", "a", "b", "b"], ["b"])).toBeNull()
    }
  })

  it("rate_limited: never the same PSP again, another one at once", () => {
    expect(next("rate_limited", ["a"], ["b"])).toBe("b")
    expect(next("rate_limited", ["a"], [])).toBeNull()
  })

  it("a decline is final and never crosses PSPs", () => {
    for (const code of ["card_declined", "insufficient_funds", "expired_card"]) expect(next(code, ["a"], ["b"])).toBeNull()
  })
})
