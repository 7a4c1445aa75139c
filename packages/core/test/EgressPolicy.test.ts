import { describe, expect, it } from "vitest"
import { addressAllowed, egressUrlProblem, hostMatches, ownOriginAccess, pspAccess, webhookAccess } from "../src/domain/egress/EgressPolicy.js"
import { isPublicAddress } from "../src/domain/egress/IpAddresses.js"
import { endpointUrlProblem } from "../src/domain/webhooks/EndpointAddresses.js"

const STRIPE = ["api.stripe.com"]
const ADYEN = ["*.adyen.com", "*-checkout-live.adyenpayments.com"]

describe("IP addresses", () => {
  it("only public unicast addresses are public, in every form that embeds an IPv4 address", () => {
    const publicOnes = [
      "8.8.8.8",
      "93.184.216.34",
      "2606:4700:4700::1111",
      "::ffff:8.8.8.8",
      "64:ff9b::808:808",
      "[2a00:1450::1]",
      "192.88.98.1",
      "2001:200::1",
      "2001:4860:4860::8888",
      "3fff:1000::1"
    ]
    const notPublic = [
      "127.0.0.1",
      "127.255.0.9",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "100.127.255.254",
      "0.0.0.0",
      "224.0.0.1",
      "240.0.0.1",
      "255.255.255.255",
      "192.0.2.1",
      "::1",
      "::",
      "fe80::1",
      "fec0::1",
      "fc00::1",
      "fd12:3456::1",
      "ff02::1",
      "2001:db8::1",
      // IPv4-mapped and IPv4-compatible, as written and as WHATWG URL writes them.
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:10.0.0.1",
      "::ffff:a9fe:a9fe",
      "::127.0.0.1",
      "::7f00:1",
      // NAT64 (well-known and local-use) and 6to4 of private addresses.
      "64:ff9b::7f00:1",
      "64:ff9b::a00:1",
      "64:ff9b::169.254.169.254",
      "64:ff9b:1::808:808",
      "2002:a00:1::1",
      "2002:7f00:1::",
      // IPv4-translated (SIIT), Teredo and the rest of the IETF protocol assignments, the 6to4 relay
      // anycast, ORCHID and ORCHIDv2, the discard-only and dummy prefixes, SRv6 SIDs, documentation.
      "::ffff:0:127.0.0.1",
      "::ffff:0:7f00:1",
      "::ffff:0:808:808",
      "2001::1",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
      "2001:2::1",
      "2001:1::1",
      "192.88.99.1",
      "2001:10::1",
      "2001:1f::1",
      "2001:20::1",
      "2001:2f:ffff::1",
      "100::1",
      "100:0:0:1::1",
      "5f00::1",
      "3fff::1",
      "3fff:fff:ffff::1",
      "not-an-ip",
      "1.2.3",
      "2130706433"
    ]
    for (const address of publicOnes) expect(isPublicAddress(address.replace(/^\[|\]$/g, "")), address).toBe(true)
    for (const address of notPublic) expect(isPublicAddress(address), address).toBe(false)
  })

  it("every way of writing a loopback or metadata address in a URL is refused once WHATWG URL has normalised it", () => {
    const access = pspAccess({ livemode: false, liveHosts: undefined, privateAddresses: "deny" })
    for (
      const url of [
        "https://2130706433/",
        "https://0x7f.1/",
        "https://0x7f000001/",
        "https://0177.0.0.1/",
        "https://017700000001/",
        "https://127.1/",
        "https://[::ffff:127.0.0.1]/",
        "https://[::ffff:7f00:1]/",
        "https://[64:ff9b::127.0.0.1]/",
        "https://[::ffff:0:127.0.0.1]/",
        "https://[2001::7f00:1]/",
        "https://192.88.99.1/",
        "https://[2001:10::1]/",
        "https://[::1]/",
        "https://169.254.169.254/latest/meta-data/",
        "https://0xa9.0xfe.0xa9.0xfe/",
        "https://[fd00::1]/",
        "https://100.64.0.1/",
        "https://0/"
      ]
    ) {
      expect(egressUrlProblem(url, access), url).toBe("it cannot target private, loopback or link-local addresses")
    }
    for (const url of ["https://localhost/", "https://LOCALHOST./", "https://api.localhost/"]) {
      expect(egressUrlProblem(url, access), url).toBe("it cannot target localhost")
    }
  })
})

describe("host patterns", () => {
  it("a star stands for part of one label, never for a dot", () => {
    expect(hostMatches("checkout-test.adyen.com", "*.adyen.com")).toBe(true)
    expect(hostMatches("CHECKOUT-TEST.ADYEN.COM.", "*.adyen.com")).toBe(true)
    expect(hostMatches("1797a841fbb37ca7-AdyenDemo-checkout-live.adyenpayments.com", "*-checkout-live.adyenpayments.com")).toBe(true)
    expect(hostMatches("adyen.com", "*.adyen.com")).toBe(false)
    expect(hostMatches("a.b.adyen.com", "*.adyen.com")).toBe(false)
    expect(hostMatches("adyen.com.attacker.example", "*.adyen.com")).toBe(false)
    expect(hostMatches("evil.example/x-checkout-live.adyenpayments.com", "*-checkout-live.adyenpayments.com")).toBe(false)
    expect(hostMatches("xadyenpayments.com", "*-checkout-live.adyenpayments.com")).toBe(false)
    expect(hostMatches("apixstripe.com", "api.stripe.com")).toBe(false)
  })
})

describe("the egress policy", () => {
  it("live PSP calls: https to the PSP's documented hosts only, whatever the operator allows", () => {
    for (const privateAddresses of ["allow", "deny"] as const) {
      const stripe = pspAccess({ livemode: true, liveHosts: STRIPE, privateAddresses })
      const adyen = pspAccess({ livemode: true, liveHosts: ADYEN, privateAddresses })
      expect(egressUrlProblem("https://api.stripe.com", stripe)).toBeUndefined()
      expect(egressUrlProblem("https://api.stripe.com/v1/", stripe)).toBeUndefined()
      expect(egressUrlProblem("http://api.stripe.com", stripe)).toBe("it must use https")
      expect(egressUrlProblem("https://psp.example", stripe)).toMatch(/psp\.example is not among the hosts allowed here \(api\.stripe\.com\)/)
      expect(egressUrlProblem("https://127.0.0.1:4811", stripe)).toMatch(/not among the hosts/)
      expect(egressUrlProblem("https://user:pw@api.stripe.com", stripe)).toMatch(/user name or password/)
      expect(egressUrlProblem("https://acme-checkout-live.adyenpayments.com/checkout", adyen)).toBeUndefined()
      expect(egressUrlProblem("https://checkout-test.adyen.com", adyen)).toBeUndefined()
      expect(egressUrlProblem("https://adyen.com.evil.example", adyen)).toMatch(/not among the hosts/)
      // The socket connects to public addresses only, even when a documented host resolves elsewhere.
      expect(addressAllowed("10.0.0.1", stripe)).toBe(false)
      expect(addressAllowed("3.18.12.63", stripe)).toBe(true)
    }
  })

  it("test PSP calls: public https; private addresses, over http too, only when the operator allows them", () => {
    const denied = pspAccess({ livemode: false, liveHosts: STRIPE, privateAddresses: "deny" })
    const allowed = pspAccess({ livemode: false, liveHosts: STRIPE, privateAddresses: "allow" })
    expect(egressUrlProblem("https://stripe-mock.example", denied)).toBeUndefined()
    expect(egressUrlProblem("http://stripe-mock.example", denied)).toBe("it must use https")
    expect(egressUrlProblem("https://127.0.0.1:12111", denied)).toMatch(/private/)
    expect(addressAllowed("127.0.0.1", denied)).toBe(false)
    expect(egressUrlProblem("http://127.0.0.1:12111", allowed)).toBeUndefined()
    expect(egressUrlProblem("http://localhost:12111", allowed)).toBeUndefined()
    expect(addressAllowed("127.0.0.1", allowed)).toBe(true)
    expect(egressUrlProblem("ftp://127.0.0.1/", allowed)).toMatch(/http or https/)
  })

  it("webhooks: live https to public addresses; test http too, private only when allowed", () => {
    const live = webhookAccess({ livemode: true, privateAddresses: "allow" })
    expect(egressUrlProblem("http://hooks.merchant.example/x", live)).toBe("it must use https")
    expect(egressUrlProblem("https://hooks.merchant.example/x", live)).toBeUndefined()
    expect(egressUrlProblem("https://10.0.0.5/x", live)).toMatch(/private/)
    expect(addressAllowed("192.168.1.1", live)).toBe(false)
    expect(egressUrlProblem("http://hooks.merchant.example/x", webhookAccess({ livemode: false, privateAddresses: "deny" }))).toBeUndefined()
    expect(egressUrlProblem("http://127.0.0.1:9/x", webhookAccess({ livemode: false, privateAddresses: "deny" }))).toMatch(/private/)
    expect(egressUrlProblem("http://127.0.0.1:9/x", webhookAccess({ livemode: false, privateAddresses: "allow" }))).toBeUndefined()
    expect(endpointUrlProblem("https://[::1]/x", true, "allow")).toBe(
      "live-mode endpoints cannot use this URL: it cannot target private, loopback or link-local addresses"
    )
    // A refusal the operator's setting alone causes names it; live mode's does not (nothing opens it).
    expect(endpointUrlProblem("http://localhost:3000/x", false, "deny")).toBe(
      "test-mode endpoints cannot use this URL: it cannot target localhost: this service keeps test-mode calls off private, loopback and " +
        "link-local addresses (its operator's setting ORCHESTRATOR_EGRESS_PRIVATE_ADDRESSES=deny; allow opens them)"
    )
    expect(endpointUrlProblem("ftp://localhost:3000/x", false, "deny")).not.toContain("ORCHESTRATOR_EGRESS_PRIVATE_ADDRESSES")
    expect(endpointUrlProblem("http://localhost:3000/x", false, "allow")).toBeUndefined()
  })

  it("the service's own public address: that host only, private or not", () => {
    const own = ownOriginAccess("http://localhost:3000")
    expect(egressUrlProblem("http://localhost:3000/v1/provider-webhooks/pcn_1", own)).toBeUndefined()
    expect(addressAllowed("127.0.0.1", own)).toBe(true)
    expect(egressUrlProblem("http://127.0.0.1:6379/", own)).toMatch(/not among the hosts/)
  })
})
