import { Context } from "effect"
import { isIpLiteral, isPublicAddress } from "./IpAddresses.js"

/**
 * The one policy every outbound call of the service follows (PSP calls, reconciliation, webhook
 * deliveries, the sandbox's own notifications): which URLs it may be sent to and which addresses
 * its socket may connect to. The URL is checked before anything leaves; the addresses again when
 * the socket connects, on what the name resolved to then (so a name that later resolves somewhere
 * private reaches nothing). The Node client in `@orchestrator/egress` enforces it.
 */

/** Whether test mode may reach private, loopback and link-local addresses: the operator's choice. */
export type PrivateAddresses = "allow" | "deny"

/**
 * The operator's egress setting. Denied unless the composition root says otherwise, so a service
 * assembled without it keeps its internal network closed.
 */
export class EgressSettings extends Context.Reference<EgressSettings>()("core/EgressSettings", {
  defaultValue: (): { readonly privateAddresses: PrivateAddresses } => ({ privateAddresses: "deny" })
}) {}

/** What one outbound call may reach. */
export interface EgressAccess {
  readonly livemode: boolean
  /** Private, loopback and link-local addresses too. Never in live mode (the builders below see to it). */
  readonly privateAddresses: boolean
  /** When set, the only hosts the call may go to (`*` stands for part of one label: `*.adyen.com`). */
  readonly hosts?: ReadonlyArray<string>
  /** Plain http refused. */
  readonly requireTls: boolean
}

/**
 * A PSP connection's calls. Live: https to the PSP's documented hosts (any public https host for a
 * type that declares none). Test: any public https URL, and private addresses over http or https
 * when the operator allows them (a local fake of the PSP).
 */
export const pspAccess = (options: {
  readonly livemode: boolean
  readonly liveHosts: ReadonlyArray<string> | undefined
  readonly privateAddresses: PrivateAddresses
}): EgressAccess =>
  options.livemode
    ? { livemode: true, privateAddresses: false, requireTls: true, ...(options.liveHosts === undefined ? {} : { hosts: options.liveHosts }) }
    : { livemode: false, privateAddresses: options.privateAddresses === "allow", requireTls: options.privateAddresses !== "allow" }

/**
 * A webhook delivery. Live: https to public addresses. Test: http or https, to private addresses
 * only when the operator allows them (a merchant's receiver on its own machine).
 */
export const webhookAccess = (options: { readonly livemode: boolean; readonly privateAddresses: PrivateAddresses }): EgressAccess =>
  options.livemode
    ? { livemode: true, privateAddresses: false, requireTls: true }
    : { livemode: false, privateAddresses: options.privateAddresses === "allow", requireTls: false }

/**
 * The service calling itself at its configured public address (the sandbox PSP posting its
 * webhooks back): that one host, wherever it is, since the operator chose it, not a merchant.
 */
export const ownOriginAccess = (publicBaseUrl: string): EgressAccess => ({
  livemode: false,
  privateAddresses: true,
  requireTls: false,
  hosts: [normalHost(new URL(publicBaseUrl).hostname)]
})

/** A host as compared: lower case, without IPv6 brackets or a trailing dot. */
const normalHost = (hostname: string) => hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "")

/**
 * Said after a test-mode refusal that only the operator's setting causes: which setting, so the
 * merchant's developer knows whom to ask (it is `allow` on the development start).
 */
export const PRIVATE_ADDRESSES_DENIED =
  "this service keeps test-mode calls off private, loopback and link-local addresses (its operator's setting ORCHESTRATOR_EGRESS_PRIVATE_ADDRESSES=deny; allow opens them)"

/** Whether `host` matches `pattern`, where `*` stands for one or more characters of a single label. */
export const hostMatches = (host: string, pattern: string): boolean => {
  const expression = pattern.toLowerCase().split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join("[a-z0-9-]+")
  return new RegExp(`^${expression}$`).test(normalHost(host))
}

/** Whether a socket following `access` may connect to `address` (an IP, as resolved). */
export const addressAllowed = (address: string, access: EgressAccess): boolean => (access.privateAddresses && !access.livemode) || isPublicAddress(address)

/**
 * Why `url` may not be called under `access`, if it may not. Names are allowed here when they look
 * public; what they resolve to is checked when the socket connects.
 */
export const egressUrlProblem = (url: string, access: EgressAccess): string | undefined => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return "it is not an absolute URL"
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "it must be an http or https URL"
  if (access.requireTls && parsed.protocol !== "https:") return "it must use https"
  if (parsed.username !== "" || parsed.password !== "") return "it must not carry a user name or password"
  const host = normalHost(parsed.hostname)
  if (access.hosts !== undefined && !access.hosts.some((pattern) => hostMatches(host, pattern))) {
    return `${host} is not among the hosts allowed here (${access.hosts.join(", ")})`
  }
  const privateAllowed = access.privateAddresses && !access.livemode
  if (!privateAllowed && (host === "localhost" || host.endsWith(".localhost"))) return "it cannot target localhost"
  if (!privateAllowed && isIpLiteral(host) && !isPublicAddress(host)) {
    return "it cannot target private, loopback or link-local addresses"
  }
  return undefined
}
