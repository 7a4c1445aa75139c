import { Chunk, Deferred, Effect, Option, Queue, type Scope, type Tracer } from "effect"
import { currentSpanIfTraced } from "../../domain/events/CausingRequest.js"
import { traced } from "../observability/Traced.js"

/**
 * Writes items as they finish, those that finish together in one write: the first waits for
 * nothing, and whatever finishes while a write is running goes into the next one. Each caller
 * resumes once its own item is written (or dies with the write), so nothing waits for a batch to fill.
 * The write runs in a fiber of its own, so it is traced as a span of its own, `span`, linked to the
 * span of each item's caller (its SQL is then that span's, not a trace of its own).
 */
export const makeWriteBatches = <A>(
  write: (items: ReadonlyArray<A>) => Effect.Effect<void>,
  options: { readonly max: number; readonly span: string }
): Effect.Effect<(item: A) => Effect.Effect<void>, never, Scope.Scope> =>
  Effect.gen(function*() {
    const queue = yield* Queue.unbounded<{
      readonly item: A
      readonly written: Deferred.Deferred<void>
      readonly caller: Option.Option<Tracer.AnySpan>
    }>()
    yield* Effect.forkScoped(Effect.forever(Effect.gen(function*() {
      const batch = Chunk.toReadonlyArray(yield* Queue.takeBetween(queue, 1, options.max))
      const links = batch.flatMap(({ caller }) => Option.isSome(caller) ? [{ _tag: "SpanLink" as const, span: caller.value, attributes: {} }] : [])
      const exit = yield* Effect.exit(
        write(batch.map(({ item }) => item)).pipe(traced(options.span, { links, attributes: { "batch.size": batch.length } }))
      )
      yield* Effect.forEach(batch, ({ written }) => Deferred.done(written, exit), { discard: true })
    })))
    return (item: A) =>
      Effect.gen(function*() {
        const written = yield* Deferred.make<void>()
        yield* Queue.offer(queue, { item, written, caller: yield* currentSpanIfTraced })
        yield* Deferred.await(written)
      })
  })
