import { BlockList, isIP } from "node:net"

/**
 * The operator's own reverse proxies (`ORCHESTRATOR_TRUSTED_PROXIES`), by address or CIDR, IPv4 and
 * IPv6: only a request whose socket peer is one of them has its X-Forwarded-For read, and only the
 * entries those proxies appended are believed.
 */
export interface TrustedProxyList {
  /** The addresses and blocks as configured, each written `address/prefix`. */
  readonly entries: ReadonlyArray<string>
  /** Whether `address` (an IP literal, IPv4-mapped or with a zone included) is one of them. */
  readonly contains: (address: string) => boolean
}

/** An address as the list compares it: without brackets or a zone, an IPv4-mapped one as IPv4. */
export const bareAddress = (address: string): string => {
  const unbracketed = address.trim().replace(/^\[(.*)\]$/, "$1").split("%")[0]!
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(unbracketed)
  return mapped === null ? unbracketed : mapped[1]!
}

const listOf = (entries: ReadonlyArray<{ readonly address: string; readonly prefix: number; readonly family: 4 | 6 }>): TrustedProxyList => {
  const blocks = new BlockList()
  for (const { address, family, prefix } of entries) blocks.addSubnet(address, prefix, family === 4 ? "ipv4" : "ipv6")
  return {
    entries: entries.map(({ address, prefix }) => `${address}/${prefix}`),
    contains: (address) => {
      const bare = bareAddress(address)
      const family = isIP(bare)
      return family !== 0 && blocks.check(bare, family === 4 ? "ipv4" : "ipv6")
    }
  }
}

/** No proxy is trusted: X-Forwarded-For is anyone's to write, and the socket's peer is the client. */
export const NO_TRUSTED_PROXIES: TrustedProxyList = listOf([])

const EXAMPLE = "e.g. ORCHESTRATOR_TRUSTED_PROXIES=10.0.0.0/8,fd00::/8"

/**
 * Reads the setting: addresses and CIDRs separated by commas or spaces, empty for none. A bare number
 * is the hop count this setting used to take; it is refused rather than guessed at, since any peer
 * could write the header a count trusted. The answer is the list, or the one-line reason it is refused.
 */
export const parseTrustedProxies = (text: string): TrustedProxyList | string => {
  const parts = text.split(/[\s,]+/).filter((part) => part !== "")
  if (parts.length === 1 && /^\d+$/.test(parts[0]!)) {
    const count = parts[0]
    return `ORCHESTRATOR_TRUSTED_PROXIES no longer takes a count of proxies ('${count}'): ` +
      `list your reverse proxies' addresses or CIDRs, separated by commas (${EXAMPLE}), or leave it unset to trust none`
  }
  const entries: Array<{ address: string; prefix: number; family: 4 | 6 }> = []
  for (const part of parts) {
    const [written, prefixText, ...rest] = part.split("/")
    const address = bareAddress(written!)
    const family = isIP(address)
    const bits = family === 4 ? 32 : 128
    const prefix = prefixText === undefined ? bits : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN
    if (family === 0 || rest.length > 0 || !(prefix >= 0 && prefix <= bits)) {
      const shown = part.slice(0, 60)
      return `ORCHESTRATOR_TRUSTED_PROXIES must list IPv4 or IPv6 addresses or CIDRs, separated by commas (${EXAMPLE}); '${shown}' is neither`
    }
    entries.push({ address, prefix, family: family === 4 ? 4 : 6 })
  }
  return listOf(entries)
}
