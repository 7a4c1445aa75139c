import { HttpServerRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { NO_TRUSTED_PROXIES, parseTrustedProxies, type TrustedProxyList } from "@orchestrator/application"
import { clientAddressOf } from "../src/ClientAddress.js"

const proxiesOf = (setting: string) => {
  const parsed = parseTrustedProxies(setting)
  if (typeof parsed === "string") throw new Error(parsed)
  return parsed
}

const from = (remoteAddress: string, forwardedFor?: string, proxies: TrustedProxyList = NO_TRUSTED_PROXIES) =>
  clientAddressOf(
    HttpServerRequest.fromWeb(
      new Request("http://service.test/v1/payments", {
        headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor }
      })
    ).modify({ remoteAddress }),
    proxies
  )

describe("the client address failed authentications count against", () => {
  it("an IPv4 peer as it is, also when the socket shows it IPv4-mapped", () => {
    expect(from("203.0.113.7")).toBe("203.0.113.7")
    expect(from("::ffff:203.0.113.7")).toBe("203.0.113.7")
  })

  it("an IPv6 peer by its /64: one line's addresses share one count", () => {
    expect(from("2001:db8:0:12::1")).toBe("2001:db8:0:12::/64")
    expect(from("2001:0db8:0000:0012:abcd:1:2:3")).toBe("2001:db8:0:12::/64")
    expect(from("2001:db8:0:13::1")).toBe("2001:db8:0:13::/64")
    expect(from("::1")).toBe("0:0:0:0::/64")
    expect(from("fe80::1%eth0")).toBe("fe80:0:0:0::/64")
  })

  it("X-Forwarded-For only from a trusted proxy: the rightmost entry that is not one of the operator's proxies", () => {
    const balancer = proxiesOf("10.0.0.0/8")
    // Anyone may write the header: without a trusted proxy it is ignored.
    expect(from("203.0.113.7", "198.51.100.1")).toBe("203.0.113.7")
    // Nor from a peer that is not one of the proxies, whatever it claims.
    expect(from("203.0.113.7", "198.51.100.1", balancer)).toBe("203.0.113.7")
    expect(from("203.0.113.7", "10.0.0.9", balancer)).toBe("203.0.113.7")
    // One proxy: what it appended (the last entry); what the client wrote before it does not count.
    expect(from("10.0.0.2", "1.1.1.1, 198.51.100.1", balancer)).toBe("198.51.100.1")
    expect(from("::ffff:10.0.0.2", "1.1.1.1, 198.51.100.1", balancer)).toBe("198.51.100.1")
    // Two of the operator's: a CDN's edge, then the load balancer.
    const both = proxiesOf("10.0.0.0/8, 192.0.2.0/24")
    expect(from("10.0.0.2", "1.1.1.1, 198.51.100.1, 192.0.2.50", both)).toBe("198.51.100.1")
    expect(from("10.0.0.2", "1.1.1.1, 2001:db8::5, 192.0.2.50", both)).toBe("2001:db8:0:0::/64")
    // A proxy the operator did not list is a client like any other.
    expect(from("10.0.0.2", "1.1.1.1, 198.51.100.1, 192.0.2.50", balancer)).toBe("192.0.2.50")
    // IPv6 proxies, by CIDR and by address.
    const sixes = proxiesOf("fd00::/8,2001:db8:ff::1")
    expect(from("fd12::3", "2001:db8:1:2::9, 2001:db8:ff::1", sixes)).toBe("2001:db8:1:2::/64")
    expect(from("fd12::3%eth0", "203.0.113.5", sixes)).toBe("203.0.113.5")
    expect(from("fe80::1", "203.0.113.5", sixes)).toBe("fe80:0:0:0::/64")
    // A header missing, holding no address, or naming proxies only.
    expect(from("10.0.0.2", undefined, balancer)).toBe("10.0.0.2")
    expect(from("10.0.0.2", "not-an-address", balancer)).toBe("10.0.0.2")
    expect(from("10.0.0.2", "198.51.100.1, not-an-address, 10.0.0.3", balancer)).toBe("10.0.0.3")
    expect(from("10.0.0.2", "10.9.9.9, 10.0.0.3", balancer)).toBe("10.9.9.9")
  })
})

describe("ORCHESTRATOR_TRUSTED_PROXIES", () => {
  it("takes addresses and CIDRs of both families, and refuses a count of proxies or anything that is not an address", () => {
    expect(proxiesOf("").entries).toEqual([])
    expect(proxiesOf(" 10.0.0.0/8, 192.0.2.7 fd00::/8,[2001:db8::1]").entries).toEqual(["10.0.0.0/8", "192.0.2.7/32", "fd00::/8", "2001:db8::1/128"])
    expect(parseTrustedProxies("1")).toMatch(/^ORCHESTRATOR_TRUSTED_PROXIES no longer takes a count of proxies \('1'\): list .*10\.0\.0\.0\/8,fd00::\/8/)
    expect(parseTrustedProxies("0")).toMatch(/no longer takes a count/)
    for (const wrong of ["10.0.0.0/33", "fd00::/129", "10.0.0.0/8/1", "proxy.internal", "10.0.0", "10.0.0.0/-1", "1,2"]) {
      expect(parseTrustedProxies(wrong), wrong).toMatch(/^ORCHESTRATOR_TRUSTED_PROXIES must list IPv4 or IPv6 addresses or CIDRs/)
    }
  })
})
