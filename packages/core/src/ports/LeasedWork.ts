import { DateTime, Duration, Effect } from "effect"

/** An item a worker holds until its lease ends; `token` proves it still holds it when it finishes. */
export interface Leased<A> {
  readonly item: A
  readonly token: string
}

/** What a claim asks for: items due at `now`, leased until `until`, at most `limit`. */
export interface LeaseRequest {
  readonly now: DateTime.Utc
  readonly until: DateTime.Utc
  readonly limit: number
}

/**
 * Works through due items a few at a time. Each claim leases only the items about to run, for as
 * long as one item can take, so no lease has to outlast a whole batch: a slow batch never lets a
 * second worker take an item that is still being handled. An item whose handling leaves it due is
 * retried once its lease runs out, by whichever worker claims it then; a pass stops claiming once a
 * lease's length has gone by, so it never takes up again an item it handled itself.
 */
export const drainLeased = <A, R>(options: {
  readonly claim: (lease: LeaseRequest) => Effect.Effect<ReadonlyArray<Leased<A>>, never, R>
  readonly handle: (leased: Leased<A>) => Effect.Effect<void, never, R>
  readonly leaseFor: Duration.DurationInput
  readonly concurrency: number
  readonly maxPerPass: number
}): Effect.Effect<number, never, R> =>
  Effect.gen(function*() {
    const leaseMillis = Duration.toMillis(options.leaseFor)
    let handled = 0
    const started = yield* DateTime.now
    const stopAt = DateTime.add(started, { millis: leaseMillis })
    while (handled < options.maxPerPass) {
      const now = yield* DateTime.now
      if (!DateTime.lessThan(now, stopAt)) break
      const limit = Math.min(options.concurrency, options.maxPerPass - handled)
      const claimed = yield* options.claim({ now, until: DateTime.add(now, { millis: leaseMillis }), limit })
      yield* Effect.forEach(claimed, options.handle, { concurrency: options.concurrency, discard: true })
      handled += claimed.length
      if (claimed.length < limit) break
    }
    return handled
  })
