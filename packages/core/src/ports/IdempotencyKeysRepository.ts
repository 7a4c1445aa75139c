import { Context, DateTime, Effect, Option } from "effect"
import type { IdempotencyRecord, StoredAnswer } from "../domain/idempotency/IdempotencyKey.js"
import type { Tenant } from "../domain/Tenant.js"

export type { KeyCompletion } from "../domain/idempotency/IdempotencyKey.js"

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
>() {}
