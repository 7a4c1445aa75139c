import { Context, Effect, FiberRef, Layer } from "effect"
import { MemoryStore } from "../memory/MemoryStore.js"

/**
 * The unit of work: every repository call made inside `run` commits or rolls back together.
 * This is how a state change and its event land in the same transaction.
 */
export class Transactions extends Context.Tag("core/Transactions")<Transactions, {
  readonly run: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>() {
  /** One writer at a time over the shared `MemoryStore`; a failure restores the snapshot. */
  static readonly layerMemory = Layer.effect(
    Transactions,
    Effect.gen(function*() {
      const store = yield* MemoryStore
      const lock = yield* Effect.makeSemaphore(1)
      const inside = FiberRef.unsafeMake(false)
      return {
        run: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
          Effect.flatMap(FiberRef.get(inside), (nested) =>
            nested ? effect : lock.withPermits(1)(
              Effect.suspend(() => {
                const before = store.snapshot()
                return effect.pipe(
                  Effect.locally(inside, true),
                  Effect.onError(() => Effect.sync(() => store.restore(before)))
                )
              })
            ))
      }
    })
  )
}
