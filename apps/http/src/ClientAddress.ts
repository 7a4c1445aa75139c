import type { HttpServerRequest } from "@effect/platform"
import { bareAddress, NO_TRUSTED_PROXIES, type TrustedProxyList } from "@orchestrator/application"
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
 * The operator's own reverse proxies (`ORCHESTRATOR_TRUSTED_PROXIES`), by address or CIDR. None, the
 * default: X-Forwarded-For is anyone's to write and is ignored.
 */
export class TrustedProxies extends Context.Reference<TrustedProxies>()("http/TrustedProxies", {
  defaultValue: (): TrustedProxyList => NO_TRUSTED_PROXIES
}) {}

/**
 * The client as the operator's proxies saw it, when the socket's peer is one of them: walking
 * X-Forwarded-For from the right (each proxy appends the peer it saw), the first entry that is not a
 * trusted proxy. What a client wrote further left is never reached. An entry that is no address stops
 * the walk at the last proxy that was believed; a header of proxies only ends at its leftmost.
 */
const forwardedFor = (request: HttpServerRequest.HttpServerRequest, peer: string, proxies: TrustedProxyList): string | undefined => {
  if (!proxies.contains(peer)) return undefined
  const header = request.headers["x-forwarded-for"]
  if (header === undefined) return undefined
  const entries = header.split(",").map(bareAddress).filter((entry) => entry !== "")
  let nearest: string | undefined = undefined
  for (let at = entries.length - 1; at >= 0; at--) {
    const entry = entries[at]!
    if (isIP(entry) === 0) return nearest
    if (!proxies.contains(entry)) return entry
    nearest = entry
  }
  return nearest
}

/**
 * Whom failed authentications are counted against: the peer of the socket, or behind trusted proxies
 * the client they saw. An IPv4 address as it is, also when shown IPv4-mapped; an IPv6
 * address by its /64, the block one customer line gets, so walking through it does not reset the count.
 */
export const clientAddressOf = (request: HttpServerRequest.HttpServerRequest, proxies: TrustedProxyList = NO_TRUSTED_PROXIES): string => {
  const peer = Option.getOrElse(request.remoteAddress, () => "unknown")
  const address = forwardedFor(request, peer, proxies) ?? peer
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped !== null) return mapped[1]!
  if (!address.includes(":")) return address
  const groups = groupsOf(address.split("%")[0]!.toLowerCase())
  return groups === null ? address : `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, "")).join(":")}::/64`
}
