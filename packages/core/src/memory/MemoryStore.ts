import { Context, Layer } from "effect"

/**
 * The in-memory database behind every `layerMemory` repository: named tables of immutable rows.
 * Rows are replaced, never mutated, so a shallow copy of the tables is a consistent snapshot.
 */
export interface MemoryStore {
  readonly table: <A>(name: string) => Map<string, A>
  readonly snapshot: () => ReadonlyMap<string, Map<string, unknown>>
  readonly restore: (snapshot: ReadonlyMap<string, Map<string, unknown>>) => void
}

export const MemoryStore = Context.GenericTag<MemoryStore>("core/MemoryStore")

export const makeMemoryStore = (): MemoryStore => {
  let tables = new Map<string, Map<string, unknown>>()
  return {
    table: <A>(name: string) => {
      let table = tables.get(name)
      if (table === undefined) {
        table = new Map()
        tables.set(name, table)
      }
      return table as Map<string, A>
    },
    snapshot: () => new Map([...tables].map(([name, rows]) => [name, new Map(rows)])),
    restore: (snapshot) => {
      tables = new Map([...snapshot].map(([name, rows]) => [name, new Map(rows)]))
    }
  }
}

export const layerMemoryStore = Layer.sync(MemoryStore, makeMemoryStore)
