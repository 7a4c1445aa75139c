import { Context, Effect, FiberRef, Layer } from "effect"

/**
 * The in-memory database behind every `layerMemory` repository: named tables of immutable rows.
 * Rows are replaced, never mutated, so a shallow copy of the tables is a consistent snapshot.
 */
export interface MemoryStore {
  readonly table: <A>(name: string) => Map<string, A>
  readonly snapshot: () => ReadonlyMap<string, Map<string, unknown>>
  readonly restore: (snapshot: ReadonlyMap<string, Map<string, unknown>>) => void
  /**
   * One writer at a time; a failure restores the snapshot taken at the start. Nested calls join the
   * outer one. `Transactions` is this, and so are the stores' one-statement writes, which are atomic
   * and wait for a running transaction as a row lock would make them wait in PostgreSQL.
   */
  readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

export const MemoryStore = Context.GenericTag<MemoryStore>("core/MemoryStore")

export const makeMemoryStore = (): MemoryStore => {
  let tables = new Map<string, Map<string, unknown>>()
  const lock = Effect.unsafeMakeSemaphore(1)
  const inside = FiberRef.unsafeMake(false)
  const snapshot = () => new Map([...tables].map(([name, rows]) => [name, new Map(rows)]))
  const restore = (taken: ReadonlyMap<string, Map<string, unknown>>) => {
    tables = new Map([...taken].map(([name, rows]) => [name, new Map(rows)]))
  }
  return {
    table: <A>(name: string) => {
      let table = tables.get(name)
      if (table === undefined) {
        table = new Map()
        tables.set(name, table)
      }
      return table as Map<string, A>
    },
    snapshot,
    restore,
    transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.flatMap(FiberRef.get(inside), (nested) =>
        nested ? effect : lock.withPermits(1)(
          Effect.suspend(() => {
            const before = snapshot()
            return effect.pipe(
              Effect.locally(inside, true),
              Effect.onError(() => Effect.sync(() => restore(before)))
            )
          })
        ))
  }
}

export const layerMemoryStore = Layer.sync(MemoryStore, makeMemoryStore)
