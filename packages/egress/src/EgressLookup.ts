import { addressAllowed, type EgressAccess } from "@orchestrator/core"
import type { LookupFunction } from "node:net"

export interface ResolvedAddress {
  readonly address: string
  readonly family: number
}

/** Name resolution: the system resolver unless a test substitutes its own. */
export type Resolve = (hostname: string) => Promise<ReadonlyArray<ResolvedAddress>>

/**
 * The socket's name lookup: every address the host resolves to is checked against the call's access
 * at connect time, so DNS rebinding reaches nothing. Node asks for one address or, when it races
 * IPv4 and IPv6, for all of them.
 */
export const policedLookup = (resolve: Resolve, access: EgressAccess): LookupFunction => (hostname, lookupOptions, callback) => {
  resolve(hostname).then(
    (addresses) => {
      const allowed = addresses.filter((each) => addressAllowed(each.address, access))
      if (allowed.length === 0) {
        const error: NodeJS.ErrnoException = new Error(
          `${hostname} resolves only to private, loopback or link-local addresses, which this call may not reach.`
        )
        error.code = "EGRESS_REFUSED"
        return callback(error, "", 4)
      }
      if (lookupOptions.all === true) return (callback as (error: null, addresses: typeof allowed) => void)(null, allowed)
      callback(null, allowed[0]!.address, allowed[0]!.family)
    },
    (error) => callback(error, "", 4)
  )
}
