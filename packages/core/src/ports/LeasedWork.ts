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
 * Works through due items with `concurrency` workers, each claiming one item (or a `batch`, handled
 * side by side) right before handling it. A lease only has to outlast one item, never a queue of
 * them, so no second worker takes an item that is still being handled; and one slow item holds up
 * only its own worker. An item whose
 * handling leaves it due is retried once its lease runs out, by whichever worker claims it then; a
 * pass stops claiming once a lease's length has gone by, so it never takes up again an item it
 * handled itself. An item whose handling fails is logged and left to its lease, without ending the pass.
 */
export const drainLeased = <A, R>(options: {
  readonly claim: (lease: LeaseRequest) => Effect.Effect<ReadonlyArray<Leased<A>>, never, R>
  readonly handle: (leased: Leased<A>) => Effect.Effect<void, never, R>
  readonly leaseFor: Duration.DurationInput
  readonly concurrency: number
  readonly maxPerPass: number
  /**
   * How many items a worker claims at once, then handles side by side: fewer claims for short items
   * (webhook attempts). The lease must outlast the slowest item, as every item of a batch runs at once.
   */
  readonly batch?: number
  /**
   * Handles a claimed batch as a whole (one transaction for all of it, say) instead of item by item
   * with `handle`; a failure is logged and leaves the batch to its lease.
   */
  readonly handleBatch?: (claimed: ReadonlyArray<Leased<A>>) => Effect.Effect<void, never, R>
}): Effect.Effect<number, never, R> =>
  Effect.gen(function*() {
    const leaseMillis = Duration.toMillis(options.leaseFor)
    const stopAt = DateTime.add(yield* DateTime.now, { millis: leaseMillis })
    // Shared by the workers; fibers interleave only at effects, so counting here is safe.
    let handled = 0
    const worker = Effect.gen(function*() {
      while (handled < options.maxPerPass) {
        const now = yield* DateTime.now
        if (!DateTime.lessThan(now, stopAt)) return
        const limit = Math.min(options.batch ?? 1, options.maxPerPass - handled)
        handled += limit
        const claimed = yield* options.claim({ now, until: DateTime.add(now, { millis: leaseMillis }), limit })
        handled -= limit - claimed.length
        if (claimed.length === 0) return
        // One item that breaks (a bug, a row the database refuses) must not stop the others: it is
        // logged and stays leased, so it is tried again once its lease runs out.
        if (options.handleBatch !== undefined) {
          yield* options.handleBatch(claimed).pipe(
            Effect.catchAllCause((cause) => Effect.logError("A leased batch failed; it is retried after its lease", cause))
          )
          continue
        }
        yield* Effect.forEach(claimed, (leased) =>
          options.handle(leased).pipe(
            Effect.catchAllCause((cause) => Effect.logError("A leased item failed; it is retried after its lease", cause))
          ), { concurrency: "unbounded", discard: true })
      }
    })
    yield* Effect.all(Array.from({ length: options.concurrency }, () => worker), {
      concurrency: "unbounded",
      discard: true
    })
    return handled
  })
