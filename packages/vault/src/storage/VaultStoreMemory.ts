import { Effect, Layer, Option } from "effect"
import { type AccessRecord, type CardRow, VaultStore } from "./VaultStore.js"

/** The vault's tables in memory, for tests and the in-memory composition. */
export const VaultStoreMemory = Layer.sync(VaultStore, () => {
  const cards = new Map<string, CardRow>()
  const log: Array<AccessRecord> = []
  const mine = (organizationId: string, id: string) => {
    const row = cards.get(id)
    return row !== undefined && row.organizationId === organizationId ? row : undefined
  }
  return {
    insert: (row) => Effect.sync(() => void cards.set(row.id, row)),
    find: (organizationId, id) => Effect.sync(() => Option.fromNullable(mine(organizationId, id))),
    destroy: (organizationId, id) => Effect.sync(() => mine(organizationId, id) !== undefined && cards.delete(id)),
    keepNetworkTransaction: (organizationId, id, networkTransactionId) =>
      Effect.sync(() => {
        const row = mine(organizationId, id)
        if (row !== undefined) cards.set(id, { ...row, networkTransactionId })
      }),
    appendAccess: (record) => Effect.sync(() => void log.push(record)),
    accesses: (organizationId, cardId) => Effect.sync(() => log.filter((record) => record.organizationId === organizationId && record.cardId === cardId))
  }
})
