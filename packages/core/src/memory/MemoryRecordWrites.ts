import { type DateTime, Effect, Option } from "effect"
import type { Event } from "../domain/events/Event.js"
import type { IdempotencyRecord, KeyCompletion } from "../domain/idempotency/IdempotencyKey.js"
import type { Tenant } from "../domain/Tenant.js"
import type { RecordRepository, RecordStore } from "../ports/RecordStore.js"
import { insertMemoryEvents } from "./MemoryEventRows.js"
import { completeMemoryKey, insertMemoryKey } from "./MemoryKeyRides.js"
import type { MemoryStore } from "./MemoryStore.js"

interface Stateful {
  readonly id: string
  readonly status: string
  readonly updated_at: DateTime.Utc
}

/**
 * A memory repository's `insertWithEvents` and `updateIfUnchanged`, as SQL's one statement does them:
 * each in the store's transaction, so the record and its events land together or not at all, and the
 * compare-and-set waits for any transaction holding the store.
 */
export const memoryRecordWrites = <A extends Stateful>(store: MemoryStore, writes: {
  readonly insert: (tenant: Tenant, record: A) => Effect.Effect<void>
  readonly update: (tenant: Tenant, record: A) => Effect.Effect<void>
  readonly find: (tenant: Tenant, id: string) => Effect.Effect<Option.Option<A>>
}): Pick<RecordStore<A>, "insertWithEvents" | "updateIfUnchanged"> => {
  const withEvents = (tenant: Tenant, events: ReadonlyArray<Event>) => insertMemoryEvents(store, tenant.organizationId, events)
  const claimed = (tenant: Tenant, key: IdempotencyRecord | undefined) => Effect.sync(() => key === undefined || insertMemoryKey(store, tenant, key))
  const completed = (tenant: Tenant, completion: KeyCompletion | undefined) =>
    Effect.sync(() => completion === undefined ? undefined : completeMemoryKey(store, tenant, completion))
  return {
    insertWithEvents: (tenant, record, events, key) =>
      store.transaction(
        Effect.flatMap(claimed(tenant, key), (ok) =>
          ok ? Effect.as(Effect.zipRight(writes.insert(tenant, record), withEvents(tenant, events)), true) : Effect.succeed(false))
      ),
    updateIfUnchanged: (tenant, seen, record, events, completion) =>
      store.transaction(Effect.flatMap(writes.find(tenant, seen.id), (current) =>
        Option.isSome(current) && current.value.status === seen.status &&
          current.value.updated_at.epochMillis === seen.updated_at.epochMillis
          ? Effect.as(Effect.zipRight(Effect.zipRight(writes.update(tenant, record), withEvents(tenant, events)), completed(tenant, completion)), true)
          : Effect.succeed(false)))
  }
}

/**
 * Every `RecordRepository` member of a memory repository whose records are saved whole (an insert
 * and an update are the same write) and read back by `find`, which also stands for a locking read:
 * the store's transaction already holds everything.
 */
export const memoryRecordRepository = <A extends Stateful>(store: MemoryStore, records: {
  readonly save: (tenant: Tenant, record: A) => Effect.Effect<void>
  readonly find: (tenant: Tenant, id: string) => Effect.Effect<Option.Option<A>>
}): RecordRepository<A> => ({
  insert: records.save,
  update: records.save,
  ...memoryRecordWrites(store, { insert: records.save, update: records.save, find: records.find }),
  find: records.find,
  findForUpdate: records.find
})
