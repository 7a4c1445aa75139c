import { DateTime, Duration, Effect, Queue, type Scope } from "effect"
import type { FairShare, Leased, LeaseRequest } from "../../domain/LeasedWork.js"

/**
 * The workers of one job in this process, shared by its passes: at most `size` items handled at
 * once. A pass that runs out of time leaves what it started to finish here, holding its workers,
 * instead of making every item due meanwhile wait for its slowest one.
 */
export interface LeasedPool {
  readonly size: number
  readonly scope: Scope.Scope
  readonly finished: Queue.Queue<void>
  /** Items being handled now, by this pass or the one before it. */
  inFlight: number
}

/** A job's workers, for as long as the scope (the layer that declares the job) lives. */
export const makeLeasedPool = (size: number): Effect.Effect<LeasedPool, never, Scope.Scope> =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    const finished = yield* Queue.unbounded<void>()
    return { size, scope, finished, inFlight: 0 }
  })

interface DrainOptions<A, R> {
  readonly claim: (lease: LeaseRequest) => Effect.Effect<ReadonlyArray<Leased<A>>, never, R>
  readonly handle: (leased: Leased<A>) => Effect.Effect<void, never, R>
  readonly leaseFor: Duration.DurationInput
  readonly concurrency: number
  readonly maxPerPass: number
  /** The queue's fair share, handed to every claim. */
  readonly share?: FairShare
  /**
   * The job's workers (`makeLeasedPool`); without it, the pass has workers of its own and waits for
   * everything it started.
   */
  readonly pool?: LeasedPool
  /**
   * While items of the pass are still being handled and nothing was due at the last claim, how
   * often to look again: new work is taken up meanwhile, not after the slowest item ends.
   */
  readonly pollEvery?: Duration.DurationInput
  /** How many items one claim takes at most (default: as many as there are free workers). */
  readonly batch?: number
  /**
   * Handles a claimed batch as a whole (one transaction for all of it, say) instead of item by item
   * with `handle`; a failure is logged and leaves the batch to its lease. `concurrency` workers each
   * claim a batch and handle it before claiming the next.
   */
  readonly handleBatch?: (claimed: ReadonlyArray<Leased<A>>) => Effect.Effect<void, never, R>
}

/** One item that breaks (a bug, a row the database refuses) must not stop the others: it stays leased and is tried again once its lease runs out. */
const logged = <R>(effect: Effect.Effect<void, never, R>, what: string) =>
  effect.pipe(Effect.catchAllCause((cause) => Effect.logError(`A leased ${what} failed; it is retried after its lease`, cause)))

/**
 * Works through due items with at most `concurrency` of them handled at once (the pool's size, when
 * the job's pool is given: its passes together). Each item is claimed
 * when a worker is free for it, and handled and finished on its own: a worker freed by a quick item
 * takes the next due one at once, whatever the slow ones beside it do. A lease only has to outlast
 * one item, never a queue of them, so no second worker takes an item that is still being handled.
 * An item whose handling leaves it due is retried once its lease runs out, by whichever worker
 * claims it then; a pass stops claiming once a lease's length has gone by, so it never takes up
 * again an item it handled itself. An item whose handling fails is logged and left to its lease,
 * without ending the pass. The pass answers how many items it took.
 */
export const drainLeased = <A, R>(options: DrainOptions<A, R>): Effect.Effect<number, never, R> =>
  options.handleBatch !== undefined ? drainInBatches(options, options.handleBatch) : drainItems(options)

const drainItems = <A, R>(options: DrainOptions<A, R>): Effect.Effect<number, never, R> =>
  Effect.gen(function*() {
    const pool = options.pool ?? (yield* makeLeasedPool(options.concurrency))
    const leaseMillis = Duration.toMillis(options.leaseFor)
    const stopAt = DateTime.add(yield* DateTime.now, { millis: leaseMillis })
    const pollEvery = options.pollEvery ?? "1 second"
    let taken = 0
    // Items of this pass still being handled. Fibers interleave only at effects: counting here is safe.
    let mine = 0
    const finishOne = Effect.suspend(() => {
      pool.inFlight--
      mine--
      return Queue.offer(pool.finished, undefined)
    })
    let outOfTime = false
    while (true) {
      const now = yield* DateTime.now
      if (!DateTime.lessThan(now, stopAt)) {
        outOfTime = true
        break
      }
      if (taken >= options.maxPerPass) break
      const free = pool.size - pool.inFlight
      if (free > 0) {
        const limit = Math.min(free, options.batch ?? free, options.maxPerPass - taken)
        const claimed = yield* options.claim({
          now,
          until: DateTime.add(now, { millis: leaseMillis }),
          limit,
          ...(options.share === undefined ? {} : { share: options.share })
        })
        if (claimed.length > 0) {
          taken += claimed.length
          for (const leased of claimed) {
            pool.inFlight++
            mine++
            yield* Effect.forkIn(Effect.ensuring(logged(options.handle(leased), "item"), finishOne), pool.scope)
          }
          continue
        }
        if (mine === 0) break
      } else if (mine === 0) {
        // Every worker holds an item of an earlier pass: the next pass takes up what is due.
        break
      }
      yield* Effect.timeoutOption(Queue.take(pool.finished), pollEvery)
      yield* Queue.takeAll(pool.finished)
    }
    // A pass that ran out of time leaves its last items to finish on their own (the pool holds
    // them); otherwise it ends with the last of them, so what it answers is done.
    if (!outOfTime || options.pool === undefined) {
      while (mine > 0) yield* Queue.take(pool.finished)
    }
    return taken
  }).pipe(Effect.scoped)

/** `concurrency` workers, each claiming a batch and handling it as a whole before the next. */
const drainInBatches = <A, R>(
  options: DrainOptions<A, R>,
  handleBatch: (claimed: ReadonlyArray<Leased<A>>) => Effect.Effect<void, never, R>
): Effect.Effect<number, never, R> =>
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
        const claimed = yield* options.claim({
          now,
          until: DateTime.add(now, { millis: leaseMillis }),
          limit,
          ...(options.share === undefined ? {} : { share: options.share })
        })
        handled -= limit - claimed.length
        if (claimed.length === 0) return
        yield* logged(handleBatch(claimed), "batch")
      }
    })
    yield* Effect.all(Array.from({ length: options.concurrency }, () => worker), {
      concurrency: "unbounded",
      discard: true
    })
    return handled
  })
