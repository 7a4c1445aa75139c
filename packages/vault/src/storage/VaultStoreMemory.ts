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
        if (row !== undefined && row.networkTransactionId === null) cards.set(id, { ...row, networkTransactionId })
      }),
    findForAccess: (record) =>
      Effect.sync(() => {
        const row = mine(record.organizationId, record.cardId)
        if (row === undefined || row.livemode !== record.livemode) return Option.none()
        log.push(record)
        const { brand, ciphertext, keyVersion, networkTransactionId, wrappedKey } = row
        return Option.some({ keyVersion, wrappedKey, ciphertext, brand, networkTransactionId })
      }),
    accesses: (organizationId, cardId) => Effect.sync(() => log.filter((record) => record.organizationId === organizationId && record.cardId === cardId)),
    accessPage: (organizationId, cardId, beforeSeq, limit) =>
      Effect.sync(() =>
        log.map((record, index) => ({ ...record, seq: index + 1 }))
          .filter((record) => record.organizationId === organizationId && record.cardId === cardId && (beforeSeq === undefined || record.seq < beforeSeq))
          .reverse()
          .slice(0, limit)
      ),
    rewrapBatch: (current, afterId, limit, rewrap) =>
      Effect.gen(function*() {
        const batch = [...cards.values()].filter((row) => row.id > afterId && row.keyVersion < current).sort((a, b) => a.id < b.id ? -1 : 1).slice(0, limit)
        let rewrapped = 0
        for (const row of batch) {
          const next = yield* rewrap({ id: row.id, keyVersion: row.keyVersion, wrappedKey: row.wrappedKey })
          const still = cards.get(row.id)
          // One row at a time, and only the row as it was read (a card deleted meanwhile stays deleted).
          if (Option.isSome(next) && still !== undefined && still.keyVersion === row.keyVersion) {
            cards.set(row.id, { ...still, keyVersion: next.value.keyVersion, wrappedKey: next.value.wrappedKey })
            rewrapped++
          }
        }
        return { lastId: batch.at(-1)?.id ?? null, claimed: batch.length, rewrapped }
      }),
    keyVersionCounts: Effect.sync(() => {
      const counts = new Map<number, number>()
      for (const row of cards.values()) counts.set(row.keyVersion, (counts.get(row.keyVersion) ?? 0) + 1)
      return [...counts].map(([keyVersion, count]) => ({ keyVersion, cards: count }))
    })
  }
})
