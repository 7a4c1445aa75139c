import type { IdempotencyRecord, KeyCompletion } from "../domain/idempotency/IdempotencyKey.js"
import type { Tenant } from "../domain/Tenant.js"
import type { MemoryStore } from "./MemoryStore.js"

/** The memory table of Idempotency-Keys, shared by their repository and the writes they ride along with. */
export const memoryKeys = (store: MemoryStore) => store.table<IdempotencyRecord>("idempotency_keys")

export const memoryKeyId = (tenant: Tenant, key: string) => `${tenant.organizationId}/${tenant.livemode}/${key}`

/** Inserts the key unless it exists; whether it did. Call inside the store's transaction. */
export const insertMemoryKey = (store: MemoryStore, tenant: Tenant, key: IdempotencyRecord): boolean => {
  const id = memoryKeyId(tenant, key.key)
  if (memoryKeys(store).has(id)) return false
  memoryKeys(store).set(id, key)
  return true
}

/** Completes the key while `lockToken` still holds it, as the repository's `complete` does. */
export const completeMemoryKey = (store: MemoryStore, tenant: Tenant, completion: KeyCompletion): void => {
  const id = memoryKeyId(tenant, completion.key)
  const row = memoryKeys(store).get(id)
  if (row !== undefined && row.lockToken === completion.lockToken) {
    memoryKeys(store).set(id, { ...row, answer: completion.answer, lockedUntil: null, lockToken: null })
  }
}
