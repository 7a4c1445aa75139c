import { egressUrlProblem, hostMatches, pspAccess } from "@orchestrator/core"
import { describe, expect, it } from "vitest"
import { CHECKOUT_COM_LIVE_HOSTS } from "../src/checkoutcom/Settings.js"

describe("Checkout.com's live hosts under the egress policy", () => {
  const live = pspAccess({ livemode: true, liveHosts: CHECKOUT_COM_LIVE_HOSTS, privateAddresses: "allow" })

  it("the documented host and the per-merchant {prefix}.api.checkout.com hosts, over https", () => {
    for (const url of ["https://api.checkout.com", "https://1a2b3c4d.api.checkout.com/payments", "https://PREFIX99.API.CHECKOUT.COM."]) {
      expect([url, egressUrlProblem(url, live)]).toEqual([url, undefined])
    }
    expect(egressUrlProblem("http://1a2b3c4d.api.checkout.com", live)).toBe("it must use https")
  })

  it("nothing else: not the sandbox, not a nested or look-alike name, not Checkout.com's other services", () => {
    for (
      const url of [
        "https://api.sandbox.checkout.com",
        "https://1a2b3c4d.api.sandbox.checkout.com",
        "https://a.b.api.checkout.com",
        "https://api.checkout.com.evil.example",
        "https://evilapi.checkout.com",
        "https://checkout.com",
        "https://access.checkout.com/connect/token",
        "https://127.0.0.1"
      ]
    ) {
      expect([url, egressUrlProblem(url, live)]).toEqual([url, expect.stringContaining("is not among the hosts allowed here")])
    }
    expect(hostMatches("x.api.checkout.com", "*.api.checkout.com")).toBe(true)
    expect(hostMatches(".api.checkout.com", "*.api.checkout.com")).toBe(false)
  })
})
