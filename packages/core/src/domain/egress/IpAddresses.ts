/**
 * Which IP addresses are public unicast: not private, loopback, link-local, carrier-grade NAT,
 * multicast, unspecified, reserved or documentation ranges, nor any other block of the IANA IPv4 and
 * IPv6 special-purpose registries that is not a destination on the public internet, in IPv4, IPv6 and
 * the IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4). Addresses are as WHATWG URL and the
 * resolver write them: URL parsing already turns `2130706433`, `0x7f.1` or `0177.0.0.1` into `127.0.0.1`.
 */

const ipv4Parts = (address: string): ReadonlyArray<number> | undefined => {
  const parts = address.split(".")
  if (parts.length !== 4) return undefined
  const numbers = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : NaN))
  return numbers.every((n) => n >= 0 && n <= 255) ? numbers : undefined
}

const isPublicIpv4 = ([a, b, c]: ReadonlyArray<number>): boolean =>
  !(
    a === 0 || a === 10 || a === 127 || a! >= 224 || // this network, private, loopback, multicast and reserved
    (a === 100 && b! >= 64 && b! <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) || // IETF protocol assignments, documentation
    (a === 192 && b === 88 && c === 99) || // the 6to4 relay anycast (deprecated): a relay into IPv6 space
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113)
  )

/** The 8 groups of an IPv6 address, or `undefined` when it is not one. */
const ipv6Groups = (address: string): ReadonlyArray<number> | undefined => {
  let text = address.toLowerCase().replace(/^\[|\]$/g, "").split("%")[0]!
  // A trailing dotted IPv4 (`::ffff:10.0.0.1`) becomes two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted !== null) {
    const v4 = ipv4Parts(dotted[1]!)
    if (v4 === undefined) return undefined
    text = text.slice(0, -dotted[1]!.length) + `${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`
  }
  const halves = text.split("::")
  if (halves.length > 2) return undefined
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => (/^[0-9a-f]{1,4}$/.test(group) ? parseInt(group, 16) : NaN)))
  const head = parse(halves[0]!)
  const tail = halves.length === 2 ? parse(halves[1]!) : []
  const missing = 8 - head.length - tail.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill(0), ...tail]
  return groups.some(Number.isNaN) ? undefined : groups
}

const embeddedIpv4 = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255]

const isPublicIpv6 = (g: ReadonlyArray<number>): boolean => {
  const zeros = (n: number) => g.slice(0, n).every((group) => group === 0)
  if (zeros(8)) return false // unspecified
  if (zeros(7) && g[7] === 1) return false // loopback
  if (zeros(5) && g[5] === 0xffff) return isPublicIpv4(embeddedIpv4(g[6]!, g[7]!)) // IPv4-mapped
  if (zeros(6)) return false // IPv4-compatible (deprecated): never a route to anything public
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((group) => group === 0)) return isPublicIpv4(embeddedIpv4(g[6]!, g[7]!)) // NAT64
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return false // local-use NAT64 (RFC 8215): the operator's own translator
  if (g[0] === 0x2002) return isPublicIpv4(embeddedIpv4(g[1]!, g[2]!)) // 6to4
  const first = g[0]!
  // Only 2000::/3 is global unicast: outside it are the IPv4-translated block (`::ffff:0:0:0/96`),
  // discard-only and dummy prefixes (100::/64, 100:0:0:1::/64), SRv6 SIDs (5f00::/16), unique local,
  // link-local, site-local and multicast, none of them a destination on the public internet.
  if ((first & 0xe000) !== 0x2000) return false
  // 2001::/23, the IETF protocol assignments: Teredo (2001::/32, whose addresses carry an IPv4 server
  // and client), benchmarking, ORCHID (2001:10::/28) and ORCHIDv2 (2001:20::/28), and anycast services
  // (PCP, TURN, AMT, AS112) that no PSP or webhook receiver is.
  if (first === 0x2001 && g[1]! < 0x0200) return false
  if (first === 0x2001 && g[1] === 0x0db8) return false // documentation
  if (first === 0x3fff && g[1]! < 0x1000) return false // documentation (3fff::/20)
  return true
}

/** Whether `address` (an IP literal) is a public unicast address; anything that is not an IP is not. */
export const isPublicAddress = (address: string): boolean => {
  const v4 = ipv4Parts(address)
  if (v4 !== undefined) return isPublicIpv4(v4)
  const v6 = ipv6Groups(address)
  return v6 !== undefined && isPublicIpv6(v6)
}

/** Whether `host` is written as an IP address rather than a name. */
export const isIpLiteral = (host: string): boolean => ipv4Parts(host) !== undefined || ipv6Groups(host) !== undefined
