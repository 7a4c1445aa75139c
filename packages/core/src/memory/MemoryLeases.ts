import { DateTime, Option } from "effect"
import { randomBase32 } from "../domain/Ids.js"
import type { FairShare, LaneKey, Leased, LeaseRequest } from "../domain/LeasedWork.js"
import { fairPick, type FairRow } from "./MemoryFairClaims.js"
import type { MemoryStore } from "./MemoryStore.js"

interface Lease {
  readonly until: DateTime.Utc
  /** Unset once the holder has finished: the row still waits out `until`, but nobody is working on it. */
  readonly token: string | null
}

/** The leases of one kind of work, as the SQL tables keep them in `lease_until` and `lease_token`. */
export const memoryLeases = (store: MemoryStore, name: string) => {
  const leases = () => store.table<Lease>(`leases:${name}`)
  /** Where each of this table's queues' next fair claim starts (one per process in SQL, one per store here). */
  const cursors = new Map<string, LaneKey | null>()
  const free = (now: DateTime.Utc) => (id: string) => {
    const held = leases().get(id)
    return held === undefined || !DateTime.greaterThan(held.until, now)
  }
  const take = (id: string, request: LeaseRequest, token: string) => leases().set(id, { until: request.until, token })
  return {
    /** Leases up to `limit` of `candidates` (oldest first, as given) that no one holds. */
    claim: <A>(candidates: ReadonlyArray<{ readonly id: string; readonly item: A }>, request: LeaseRequest) => {
      const claimed: Array<Leased<A>> = []
      const token = randomBase32(20)
      for (const candidate of candidates) {
        if (claimed.length >= request.limit) break
        if (!free(request.now)(candidate.id)) continue
        take(candidate.id, request, token)
        claimed.push({ item: candidate.item, token })
      }
      return claimed
    },
    /**
     * Leases what a fair claim of `queue` picks among `rows` (every row of the table, in the queue's
     * order within a lane): see `fairPick`. `share` is the request's, or the queue's default.
     */
    claimFair: <A>(
      queue: string,
      rows: ReadonlyArray<FairRow<A>>,
      request: LeaseRequest,
      defaults: FairShare,
      laneCap?: (lane: LaneKey) => number
    ): Array<Leased<A>> => {
      const { cursor, picked } = fairPick(rows, {
        limit: request.limit,
        cursor: cursors.get(queue) ?? null,
        share: request.share ?? defaults,
        ...(laneCap === undefined ? {} : { laneCap }),
        free: free(request.now),
        inFlight: (id) => {
          const held = leases().get(id)
          return held !== undefined && held.token !== null && DateTime.greaterThan(held.until, request.now)
        }
      })
      cursors.set(queue, cursor)
      const token = randomBase32(20)
      return picked.map((row) => {
        take(row.id, request, token)
        return { item: row.item, token }
      })
    },
    /** True when `token` still holds the lease of `id`. */
    holds: (id: string, token: string) =>
      Option.fromNullable(leases().get(id)).pipe(
        Option.exists((lease) => lease.token === token)
      ),
    release: (id: string) => void leases().delete(id),
    /** When the lease of `id` ends, if it has one (ended or not). */
    until: (id: string): DateTime.Utc | undefined => leases().get(id)?.until,
    /** The holder of `id` has finished with it; it stays leased until its lease ends. */
    finish: (id: string, token: string) => {
      const held = leases().get(id)
      if (held?.token === token) leases().set(id, { until: held.until, token: null })
    },
    /** The holder of `id` has finished with it, and it waits until `until` before it is due again. */
    holdUntil: (id: string, token: string, until: DateTime.Utc) => {
      if (leases().get(id)?.token === token) leases().set(id, { until, token: null })
    }
  }
}
