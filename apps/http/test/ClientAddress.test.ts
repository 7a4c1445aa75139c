import { HttpServerRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { clientAddressOf } from "../src/ClientAddress.js"

const from = (remoteAddress: string) =>
  clientAddressOf(HttpServerRequest.fromWeb(new Request("http://service.test/v1/payments")).modify({ remoteAddress }))

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
})
