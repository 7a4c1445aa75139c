import { Clock, Deferred, Duration, Effect, Option } from "effect"

/** At most one PSP sync per payment in this interval, however often its customer comes back. */
export const RETURN_SYNC_INTERVAL = Duration.seconds(5)

/** Payments remembered at once; past it the oldest is forgotten (it may then sync a little early). */
const CAPACITY = 10_000

interface Slot {
  readonly at: number
  readonly done: Deferred.Deferred<void>
}

/**
 * Spaces out the PSP syncs the customer's returns cause, in this process (kept in memory: a column
 * would need a migration, and each process syncing once per interval still bounds the PSP's load by
 * the number of processes). A return inside the interval waits for the sync under way, if any, and
 * then reads what it recorded, so a reload or a double redirect costs no second call.
 */
export const makeReturnSyncThrottle = Effect.sync(() => {
  const slots = new Map<string, Slot>()
  const intervalMillis = Duration.toMillis(RETURN_SYNC_INTERVAL)

  /** Forgets what the interval no longer covers; the map is in order of time, oldest first. */
  const prune = (now: number) => {
    for (const [key, slot] of slots) {
      if (now - slot.at < intervalMillis && slots.size < CAPACITY) break
      slots.delete(key)
    }
  }

  /** Runs `sync` unless one ran for `key` within the interval (then `None`, once that one ended). */
  const run = <A, E, R>(key: string, sync: Effect.Effect<A, E, R>): Effect.Effect<Option.Option<A>, E, R> =>
    // Taking the slot and promising to release its waiters happen together, whatever interrupts.
    Effect.uninterruptibleMask((restore) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const done = yield* Deferred.make<void>()
        // Checked and taken in one synchronous step: no other fiber runs in between.
        const earlier = yield* Effect.sync(() => {
          const slot = slots.get(key)
          if (slot !== undefined && now - slot.at < intervalMillis && now >= slot.at) return slot
          slots.delete(key)
          prune(now)
          slots.set(key, { at: now, done })
          return undefined
        })
        if (earlier !== undefined) {
          yield* restore(Deferred.await(earlier.done))
          return Option.none()
        }
        return yield* restore(Effect.map(sync, Option.some)).pipe(Effect.ensuring(Deferred.succeed(done, undefined)))
      })
    )

  return { run }
})
