import { HttpServerRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { clientAddressOf } from "../src/ClientAddress.js"

const from = (remoteAddress: string, forwardedFor?: string, proxies = 0) =>
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

  it("X-Forwarded-For only behind trusted proxies: the entry the outermost one appended", () => {
    // Anyone may write the header: without a trusted proxy it is ignored.
    expect(from("203.0.113.7", "198.51.100.1")).toBe("203.0.113.7")
    // One proxy: what it appended (the last entry); what the client wrote before it does not count.
    expect(from("10.0.0.2", "1.1.1.1, 198.51.100.1", 1)).toBe("198.51.100.1")
    // Two: a CDN, then the load balancer.
    expect(from("10.0.0.2", "1.1.1.1, 198.51.100.1, 192.0.2.50", 2)).toBe("198.51.100.1")
    expect(from("10.0.0.2", "1.1.1.1, 2001:db8::5, 192.0.2.50", 2)).toBe("2001:db8:0:0::/64")
    // A header missing or holding no address: the socket's peer.
    expect(from("10.0.0.2", undefined, 1)).toBe("10.0.0.2")
    expect(from("10.0.0.2", "not-an-address", 1)).toBe("10.0.0.2")
    expect(from("10.0.0.2", "198.51.100.1", 2)).toBe("10.0.0.2")
  })
})
