import { DateTime, Effect, Layer, Option } from "effect"
import type { IdempotencyRecord } from "../domain/idempotency/IdempotencyKey.js"
import type { Tenant } from "../domain/Tenant.js"
import { IdempotencyKeysRepository } from "../ports/IdempotencyKeysRepository.js"
import { memoryKeyId, memoryKeys } from "./MemoryKeyRides.js"
import { MemoryStore } from "./MemoryStore.js"

/** `IdempotencyKeysRepository` in memory: for the core's tests and `CoreMemory`, on the same paths production takes. */
export const MemoryIdempotencyKeysRepository = Layer.effect(
  IdempotencyKeysRepository,
  Effect.map(MemoryStore, (store) => {
    const rows = () => memoryKeys(store)
    const id = memoryKeyId
    const change = (tenant: Tenant, key: string, lockToken: string, changes: Partial<IdempotencyRecord>) =>
      Effect.sync(() => {
        const row = rows().get(id(tenant, key))
        const held = row !== undefined && row.lockToken === lockToken
        if (held) rows().set(id(tenant, key), { ...row, ...changes })
        return held
      })
    return {
      start: (tenant, record) =>
        Effect.sync(() => {
          const existing = rows().get(id(tenant, record.key))
          if (existing !== undefined) return Option.some(existing)
          rows().set(id(tenant, record.key), record)
          return Option.none()
        }),
      find: (tenant, key) => Effect.sync(() => Option.fromNullable(rows().get(id(tenant, key)))),
      acquire: (tenant, key, { lockToken, lockedUntil, now }) =>
        Effect.sync(() => {
          const row = rows().get(id(tenant, key))
          if (
            row === undefined || row.answer !== null ||
            (row.lockedUntil !== null && !DateTime.lessThan(row.lockedUntil, now))
          ) return Option.none()
          const taken = { ...row, lockedUntil, lockToken }
          rows().set(id(tenant, key), taken)
          return Option.some(taken)
        }),
      attach: (tenant, key, lockToken, resourceId) => change(tenant, key, lockToken, { resourceId }),
      complete: (tenant, key, lockToken, answer) => Effect.asVoid(change(tenant, key, lockToken, { answer, lockedUntil: null, lockToken: null })),
      release: (tenant, key, lockToken) => Effect.asVoid(change(tenant, key, lockToken, { lockedUntil: null, lockToken: null })),
      purge: ({ createdBefore, now }) =>
        Effect.sync(() => {
          let purged = 0
          for (const [rowId, row] of rows()) {
            const idle = row.lockedUntil === null || DateTime.lessThan(row.lockedUntil, now)
            if (DateTime.lessThan(row.createdAt, createdBefore) && idle) {
              rows().delete(rowId)
              purged++
            }
          }
          return purged
        })
    }
  })
)
