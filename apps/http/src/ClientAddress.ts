import type { HttpServerRequest } from "@effect/platform"
import { Option } from "effect"

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
 * Whom failed authentications are counted against: the peer of the socket (a forwarded header is
 * anyone's to write). An IPv4 address as it is, also when the socket shows it IPv4-mapped; an IPv6
 * address by its /64, the block one customer line gets, so walking through it does not reset the count.
 */
export const clientAddressOf = (request: HttpServerRequest.HttpServerRequest): string => {
  const address = Option.getOrElse(request.remoteAddress, () => "unknown")
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped !== null) return mapped[1]!
  if (!address.includes(":")) return address
  const groups = groupsOf(address.split("%")[0]!.toLowerCase())
  return groups === null ? address : `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, "")).join(":")}::/64`
}
