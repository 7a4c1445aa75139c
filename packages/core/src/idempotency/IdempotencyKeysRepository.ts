import { Context, DateTime, Effect, Layer, Option } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import { memoryKeyId, memoryKeys } from "../memory/MemoryKeyRides.js"
import { MemoryStore } from "../memory/MemoryStore.js"
import type { IdempotencyRecord, StoredAnswer } from "./IdempotencyKey.js"

export type { KeyCompletion } from "./IdempotencyKey.js"

export class IdempotencyKeysRepository extends Context.Tag("core/IdempotencyKeysRepository")<
  IdempotencyKeysRepository,
  {
    /**
     * Inserts the record unless the key exists; then returns what is stored instead. (A record may
     * carry its answer already: an answer reached before anything else was written.)
     */
    readonly start: (tenant: Tenant, record: IdempotencyRecord) => Effect.Effect<Option.Option<IdempotencyRecord>>
    /** The key as stored, if it is. */
    readonly find: (tenant: Tenant, key: string) => Effect.Effect<Option.Option<IdempotencyRecord>>
    /**
     * Takes over an unfinished key whose lock was released or has lapsed, under a new `lockToken`.
     * `None` when someone else holds it or it has finished meanwhile.
     */
    readonly acquire: (
      tenant: Tenant,
      key: string,
      options: { readonly now: DateTime.Utc; readonly lockedUntil: DateTime.Utc; readonly lockToken: string }
    ) => Effect.Effect<Option.Option<IdempotencyRecord>>
    /** The next three act only while `lockToken` still holds the key. */
    /** Links the created object to the key; false when this request no longer holds the key. */
    readonly attach: (tenant: Tenant, key: string, lockToken: string, resourceId: string) => Effect.Effect<boolean>
    readonly complete: (tenant: Tenant, key: string, lockToken: string, answer: StoredAnswer) => Effect.Effect<void>
    /** Unlocks without an answer, so a retry can resume the work. */
    readonly release: (tenant: Tenant, key: string, lockToken: string) => Effect.Effect<void>
    /** Deletes keys created before `createdBefore` that no request holds; returns how many. */
    readonly purge: (options: { readonly createdBefore: DateTime.Utc; readonly now: DateTime.Utc }) => Effect.Effect<number>
  }
>() {
  static readonly layerMemory = Layer.effect(
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
}
