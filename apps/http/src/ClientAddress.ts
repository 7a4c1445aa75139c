import type { HttpServerRequest } from "@effect/platform"
import { Context, Option } from "effect"
import { isIP } from "node:net"

/** The eight groups of an IPv6 address, `::` expanded; null when it is not one. */
const groupsOf = (address: string): Array<string> | null => {
  const halves = address.split("::")
  if (halves.length > 2) return null
  const head = halves[0] === "" ? [] : halves[0]!.split(":")
  const tail = halves.length === 1 || halves[1] === "" ? [] : halves[1]!.split(":")
  const missing = 8 - head.length - tail.length
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null
  return [...head, ...Array.from({ length: missing }, () => "0"), ...tail]
}

/**
 * How many reverse proxies of the operator's own stand in front of the service, each appending the
 * address it saw to X-Forwarded-For (`ORCHESTRATOR_TRUSTED_PROXIES`). 0, the default: the header is
 * anyone's to write and is ignored.
 */
export class TrustedProxies extends Context.Reference<TrustedProxies>()("http/TrustedProxies", {
  defaultValue: () => 0
}) {}

/** The address the outermost trusted proxy saw: the entry it appended, counted from the right. */
const forwardedFor = (request: HttpServerRequest.HttpServerRequest, proxies: number): string | undefined => {
  if (proxies === 0) return undefined
  const header = request.headers["x-forwarded-for"]
  if (header === undefined) return undefined
  const entries = header.split(",").map((entry) => entry.trim())
  const seen = entries[entries.length - proxies]
  return seen !== undefined && isIP(seen) !== 0 ? seen : undefined
}

/**
 * Whom failed authentications are counted against: the peer of the socket, or behind trusted proxies
 * the address the outermost one saw. An IPv4 address as it is, also when shown IPv4-mapped; an IPv6
 * address by its /64, the block one customer line gets, so walking through it does not reset the count.
 */
export const clientAddressOf = (request: HttpServerRequest.HttpServerRequest, proxies = 0): string => {
  const address = forwardedFor(request, proxies) ?? Option.getOrElse(request.remoteAddress, () => "unknown")
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped !== null) return mapped[1]!
  if (!address.includes(":")) return address
  const groups = groupsOf(address.split("%")[0]!.toLowerCase())
  return groups === null ? address : `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, "")).join(":")}::/64`
}
