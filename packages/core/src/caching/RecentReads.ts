import { Clock, Effect, Option } from "effect"

/**
 * What a repository read a moment ago, kept for `ttlMillis` so the hot path of every request (its
 * API key, its organization and connections) does not cost a database round trip each time. Only
 * found values are kept. The repository that owns it forgets everything on each of its own writes,
 * so a process always reads its own writes; another process's writes show within `ttlMillis`.
 */
export interface RecentReads<A> {
  readonly through: (key: string, read: Effect.Effect<Option.Option<A>>) => Effect.Effect<Option.Option<A>>
  readonly forgetAll: Effect.Effect<void>
}

export const makeRecentReads = <A>(ttlMillis: number, maxEntries = 10_000): RecentReads<A> => {
  const entries = new Map<string, { readonly value: A; readonly until: number }>()
  // A write between a read's start and its end must not let that read's (older) result be kept.
  let generation = 0
  return {
    through: (key, read) =>
      Effect.gen(function*() {
        const at = yield* Clock.currentTimeMillis
        const kept = entries.get(key)
        if (kept !== undefined && kept.until > at) return Option.some(kept.value)
        const started = generation
        const found = yield* read
        if (Option.isSome(found) && started === generation) {
          if (entries.size >= maxEntries) entries.clear()
          entries.set(key, { value: found.value, until: at + ttlMillis })
        }
        return found
      }),
    forgetAll: Effect.sync(() => {
      generation++
      entries.clear()
    })
  }
}

/** `write`, then everything `reads` kept is forgotten: a process reads its own writes. */
export const forgetting = <Args extends ReadonlyArray<unknown>, B, E, R>(
  reads: ReadonlyArray<Pick<RecentReads<unknown>, "forgetAll">>,
  write: (...args: Args) => Effect.Effect<B, E, R>
) =>
(...args: Args): Effect.Effect<B, E, R> => Effect.ensuring(write(...args), Effect.forEach(reads, (cache) => cache.forgetAll, { discard: true }))
