import { DateTime } from "effect"

/** An item a worker holds until its lease ends; `token` proves it still holds it when it finishes. */
export interface Leased<A> {
  readonly item: A
  readonly token: string
}

/**
 * How one queue shares its workers between organizations. Its work is split into lanes: an
 * organization's mode, or finer (one of its provider connections, one of its webhook endpoints). A
 * claim takes turns over the lanes with work waiting, starting after the lane the last claim served:
 * the first due item of each lane before the second of any, live mode before test mode, and never
 * more in flight (claimed and not yet finished) than `perLane` of a lane or `perTenant` of an
 * organization's mode, however many items it has waiting.
 */
export interface FairShare {
  readonly perTenant: number
  readonly perLane: number
}

/**
 * A lane of a queue, in the order claims take turns over lanes: the organization, the mode, then
 * what the queue splits an organization's work by (a connection's name, an endpoint's id). Text
 * compares by its code units, as the SQL compares it (`collate "C"`).
 */
export type LaneKey = readonly [organizationId: string, livemode: boolean, ...rest: Array<string>]

/** How many lanes one claim visits at most; the next claim goes on from the last one visited. */
export const MAX_LANES_PER_CLAIM = 256

/** What a claim asks for: items due at `now`, leased until `until`, at most `limit`. */
export interface LeaseRequest {
  readonly now: DateTime.Utc
  readonly until: DateTime.Utc
  readonly limit: number
  /** How the queue shares its workers; without it, the store's default for that queue. */
  readonly share?: FairShare
}
