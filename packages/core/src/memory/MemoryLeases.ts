import { DateTime, Option } from "effect"
import { randomBase32 } from "../domain/Ids.js"
import type { Leased, LeaseRequest } from "../ports/LeasedWork.js"
import type { MemoryStore } from "./MemoryStore.js"

interface Lease {
  readonly until: DateTime.Utc
  readonly token: string
}

/** The leases of one kind of work, as the SQL tables keep them in `lease_until` and `lease_token`. */
export const memoryLeases = (store: MemoryStore, name: string) => {
  const leases = () => store.table<Lease>(`leases:${name}`)
  return {
    /** Leases up to `limit` of `candidates` (oldest first, as given) that no one holds. */
    claim: <A>(candidates: ReadonlyArray<{ readonly id: string; readonly item: A }>, request: LeaseRequest) => {
      const claimed: Array<Leased<A>> = []
      for (const candidate of candidates) {
        if (claimed.length >= request.limit) break
        const held = leases().get(candidate.id)
        if (held !== undefined && !DateTime.lessThan(held.until, request.now)) continue
        const token = randomBase32(20)
        leases().set(candidate.id, { until: request.until, token })
        claimed.push({ item: candidate.item, token })
      }
      return claimed
    },
    /** True when `token` still holds the lease of `id`. */
    holds: (id: string, token: string) =>
      Option.fromNullable(leases().get(id)).pipe(
        Option.exists((lease) => lease.token === token)
      ),
    release: (id: string) => void leases().delete(id),
    /** Moves the end of the lease of `id` to `until`, while `token` still holds it. */
    holdUntil: (id: string, token: string, until: DateTime.Utc) => {
      if (leases().get(id)?.token === token) leases().set(id, { until, token })
    }
  }
}
