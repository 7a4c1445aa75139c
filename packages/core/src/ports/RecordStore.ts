import type { Effect, Option } from "effect"
import type { Event } from "../domain/events/Event.js"
import type { IdempotencyRecord, KeyCompletion } from "../domain/idempotency/IdempotencyKey.js"
import type { Tenant } from "../domain/Tenant.js"
import type { CardReadAlong } from "./CardVault.js"

/** What a repository of records with a status must offer the lifecycle. */
export interface RecordStore<A> {
  readonly update: (tenant: Tenant, record: A) => Effect.Effect<void>
  readonly find: (tenant: Tenant, id: string) => Effect.Effect<Option.Option<A>>
  /** Like `find`, and holds the record against concurrent writers until the transaction ends. */
  readonly findForUpdate: (tenant: Tenant, id: string) => Effect.Effect<Option.Option<A>>
  /**
   * The record inserted with its events in one write (one statement in SQL), atomic on its own:
   * both or neither. With a `key`, the request's Idempotency-Key is inserted by the same write, and
   * nothing at all is written when the key exists already: false then, true otherwise. With
   * `cardRead` (a vaulted payment's), the card's first access is recorded by the same write and its
   * sealed data handed back, when the store can (SQL); others leave it unread.
   */
  readonly insertWithEvents: (
    tenant: Tenant,
    record: A,
    events: ReadonlyArray<Event>,
    key?: IdempotencyRecord,
    cardRead?: CardReadAlong
  ) => Effect.Effect<boolean>
  /**
   * `record` and its events written in one write if the stored record is still as `seen` (same
   * status, same `updated_at`); false, and nothing written, otherwise. Atomic on its own. With a
   * `completion`, the request's Idempotency-Key is completed by the same write, when it is made.
   */
  readonly updateIfUnchanged: (
    tenant: Tenant,
    seen: A,
    record: A,
    events: ReadonlyArray<Event>,
    completion?: KeyCompletion
  ) => Effect.Effect<boolean>
}

/** A repository of records with a status: the lifecycle's store, and an insert without events. */
export interface RecordRepository<A> extends RecordStore<A> {
  readonly insert: (tenant: Tenant, record: A) => Effect.Effect<void>
}
