import { type FairShare, type LaneKey, MAX_LANES_PER_CLAIM } from "../domain/LeasedWork.js"

const compareParts = (a: string | boolean, b: string | boolean) => a === b ? 0 : a < b ? -1 : 1

export const compareLanes = (a: LaneKey, b: LaneKey): number => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const order = compareParts(a[i] ?? "", b[i] ?? "")
    if (order !== 0) return order
  }
  return 0
}

const laneId = (lane: LaneKey) => JSON.stringify(lane)
const tenantId = (lane: LaneKey) => JSON.stringify([lane[0], lane[1]])

/** A row of a queue's table, as a fair claim sees it. */
export interface FairRow<A> {
  readonly id: string
  readonly lane: LaneKey
  /** Whether it waits in the queue at all (what the SQL's partial index holds: pending, processing, …). */
  readonly waiting: boolean
  /** Whether it may be taken now, its lease aside. */
  readonly due: boolean
  readonly item: A
}

export interface FairPick<A> {
  readonly picked: ReadonlyArray<FairRow<A>>
  /** Where the next claim starts: after this lane. */
  readonly cursor: LaneKey | null
}

/**
 * The decisions of a fair claim (see `FairShare`), as the SQL takes them: `rows` are every row of
 * the table in the queue's order within a lane; `free` says a row is not leased, `inFlight` that
 * it is claimed and not yet finished. Lanes with waiting rows are visited in lane order from after
 * `cursor`, wrapping around, at most `MAX_LANES_PER_CLAIM`; each offers its first due free rows, as
 * many as its lane and its organization have room for; the organization's room is then shared by
 * its lanes' offers in turn; and the claim takes, live mode first, every lane's first offer in
 * visiting order, then every lane's second, up to `limit`.
 */
export const fairPick = <A>(
  rows: ReadonlyArray<FairRow<A>>,
  options: {
    readonly limit: number
    readonly cursor: LaneKey | null
    readonly share: FairShare
    /** A lane's own cap, when it is not `share.perLane` (an endpoint whose circuit is open: 0). */
    readonly laneCap?: (lane: LaneKey) => number
    readonly free: (id: string) => boolean
    readonly inFlight: (id: string) => boolean
  }
): FairPick<A> => {
  const inFlightOf = new Map<string, number>()
  for (const row of rows) {
    if (!options.inFlight(row.id)) continue
    for (const key of new Set([laneId(row.lane), tenantId(row.lane)])) inFlightOf.set(key, (inFlightOf.get(key) ?? 0) + 1)
  }
  const byLane = new Map<string, { lane: LaneKey; rows: Array<FairRow<A>> }>()
  for (const row of rows) {
    if (!row.waiting) continue
    const key = laneId(row.lane)
    const entry = byLane.get(key) ?? { lane: row.lane, rows: [] }
    entry.rows.push(row)
    byLane.set(key, entry)
  }
  const lanes = [...byLane.values()].sort((a, b) => compareLanes(a.lane, b.lane))
  const { cursor } = options
  const after = cursor === null ? -1 : lanes.findIndex((entry) => compareLanes(entry.lane, cursor) > 0)
  const start = after < 0 ? 0 : after
  const visited = Array.from({ length: Math.min(lanes.length, MAX_LANES_PER_CLAIM) }, (_, i) => lanes[(start + i) % lanes.length]!)

  const offers: Array<{ row: FairRow<A>; inLane: number; step: number; tenantRoom: number }> = []
  visited.forEach(({ lane, rows: laneRows }, index) => {
    const laneCap = options.laneCap?.(lane) ?? options.share.perLane
    const laneRoom = laneCap - (inFlightOf.get(laneId(lane)) ?? 0)
    const tenantRoom = options.share.perTenant - (inFlightOf.get(tenantId(lane)) ?? 0)
    const room = Math.min(laneRoom, tenantRoom, options.limit)
    if (room <= 0) return
    laneRows.filter((row) => row.due && options.free(row.id)).slice(0, room).forEach((row, rank) =>
      offers.push({ row, inLane: rank + 1, step: index + 1, tenantRoom })
    )
  })
  const byTurn = (a: { inLane: number; step: number }, b: { inLane: number; step: number }) => a.inLane - b.inLane || a.step - b.step
  const inTenant = new Map<string, number>()
  const kept = [...offers].sort(byTurn).filter((offer) => {
    const key = tenantId(offer.row.lane)
    const rank = (inTenant.get(key) ?? 0) + 1
    inTenant.set(key, rank)
    return rank <= offer.tenantRoom
  })
  const chosen = kept
    .sort((a, b) => Number(b.row.lane[1]) - Number(a.row.lane[1]) || byTurn(a, b))
    .slice(0, Math.max(0, options.limit))
  const lastServed = chosen.reduce<(typeof chosen)[number] | undefined>((last, offer) => last === undefined || offer.step > last.step ? offer : last, undefined)
  const nextCursor = lastServed !== undefined
    ? lastServed.row.lane
    : visited.length === MAX_LANES_PER_CLAIM
    ? visited[visited.length - 1]!.lane
    : cursor
  return { picked: chosen.map((offer) => offer.row), cursor: nextCursor }
}
