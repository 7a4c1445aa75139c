import { Chunk, Deferred, Effect, Queue, type Scope } from "effect"

/**
 * Writes items as they finish, those that finish together in one write: the first waits for
 * nothing, and whatever finishes while a write is running goes into the next one. Each caller
 * resumes once its own item is written (or dies with the write), so nothing waits for a batch to fill.
 */
export const makeWriteBatches = <A>(
  write: (items: ReadonlyArray<A>) => Effect.Effect<void>,
  max: number
): Effect.Effect<(item: A) => Effect.Effect<void>, never, Scope.Scope> =>
  Effect.gen(function*() {
    const queue = yield* Queue.unbounded<{ readonly item: A; readonly written: Deferred.Deferred<void> }>()
    yield* Effect.forkScoped(Effect.forever(Effect.gen(function*() {
      const batch = Chunk.toReadonlyArray(yield* Queue.takeBetween(queue, 1, max))
      const exit = yield* Effect.exit(write(batch.map(({ item }) => item)))
      yield* Effect.forEach(batch, ({ written }) => Deferred.done(written, exit), { discard: true })
    })))
    return (item: A) =>
      Effect.gen(function*() {
        const written = yield* Deferred.make<void>()
        yield* Queue.offer(queue, { item, written })
        yield* Deferred.await(written)
      })
  })
