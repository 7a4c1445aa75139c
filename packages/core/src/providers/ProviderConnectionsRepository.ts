import { Context, DateTime, Effect, Layer, Option } from "effect"
import { forgetting, makeRecentReads } from "../caching/RecentReads.js"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import { pageOf } from "../memory/MemoryPaging.js"
import { MemoryStore } from "../memory/MemoryStore.js"
import { ProviderConnection } from "./ProviderConnection.js"
import type { SecretKind } from "./SecretKind.js"

/** A connection found by its id alone (an incoming PSP webhook), with the tenant it belongs to. */
export interface OwnedConnection {
  readonly tenant: Tenant
  readonly connection: ProviderConnection
}

/** What a failed call did to a connection: `opened` when it just tripped the circuit. */
export interface FailureRecorded {
  readonly connection: ProviderConnection
  readonly opened: boolean
}

export class ProviderConnectionsRepository extends Context.Tag("core/ProviderConnectionsRepository")<
  ProviderConnectionsRepository,
  {
    readonly insert: (organizationId: string, connection: ProviderConnection) => Effect.Effect<void>
    /** Saves what the merchant changes; the circuit's fields are left to the health operations. */
    readonly update: (organizationId: string, connection: ProviderConnection) => Effect.Effect<void>
    readonly find: (tenant: Tenant, id: string) => Effect.Effect<Option.Option<ProviderConnection>>
    /** Finds it and holds it until the transaction ends, so no health update interleaves. */
    readonly lock: (tenant: Tenant, id: string) => Effect.Effect<Option.Option<ProviderConnection>>
    /** A live (not deleted) connection by name. */
    readonly findByName: (tenant: Tenant, name: string) => Effect.Effect<Option.Option<ProviderConnection>>
    /** By name, deleted ones too: the connection a stored payment was made on. */
    readonly findByNameEver: (tenant: Tenant, name: string) => Effect.Effect<Option.Option<ProviderConnection>>
    /** By id alone, for the PSP's webhooks; deleted connections receive nothing. */
    readonly findOwned: (id: string) => Effect.Effect<Option.Option<OwnedConnection>>
    /** Every live connection of the tenant, oldest first. */
    readonly list: (tenant: Tenant) => Effect.Effect<ReadonlyArray<ProviderConnection>>
    readonly page: (tenant: Tenant, page: PageRequest) => Effect.Effect<Page<ProviderConnection>, InvalidCursor>
    /** Hides the connection from everything but the payments made on it; its name stays taken. */
    readonly markDeleted: (tenant: Tenant, id: string, at: DateTime.Utc) => Effect.Effect<void>
    /** A secret as stored: encrypted, never decrypted here. */
    readonly findSealedSecret: (connectionId: string, kind: SecretKind) => Effect.Effect<Option.Option<string>>
    readonly saveSealedSecret: (connectionId: string, kind: SecretKind, sealed: string | null) => Effect.Effect<void>
    /**
     * One more failure in a row. At `threshold` an active connection's circuit opens (status
     * `error`) until `retryAt`; a failure while open (the trial call) keeps it open until `retryAt`.
     */
    readonly recordFailure: (connectionId: string, failure: {
      readonly reason: string
      readonly threshold: number
      readonly retryAt: DateTime.Utc
      readonly now: DateTime.Utc
    }) => Effect.Effect<FailureRecorded>
    /** A call got through: failures back to 0, and an open circuit closes. */
    readonly recordSuccess: (connectionId: string, now: DateTime.Utc) => Effect.Effect<void>
    /**
     * Lets one trial call through an open circuit whose `circuit_retry_at` has passed, held until
     * `until`; false when it is not time yet, or another trial call is already on its way.
     */
    readonly claimTrial: (connectionId: string, now: DateTime.Utc, until: DateTime.Utc) => Effect.Effect<boolean>
  }
>() {
  /**
   * The tenant's connections as read within the last second, for resolving every payment without a
   * round trip; this process's own writes (health included) are seen at once, another's within a second.
   */
  static readonly withRecentReads = Layer.effect(
    ProviderConnectionsRepository,
    Effect.map(ProviderConnectionsRepository, (stored) => {
      const lists = makeRecentReads<ReadonlyArray<ProviderConnection>>(1_000)
      const write = <Args extends ReadonlyArray<unknown>, B>(f: (...args: Args) => Effect.Effect<B>) => forgetting([lists], f)
      return ProviderConnectionsRepository.of({
        ...stored,
        list: (tenant) =>
          Effect.map(
            lists.through(`${tenant.organizationId}/${tenant.livemode}`, Effect.map(stored.list(tenant), Option.some)),
            Option.getOrElse(() => [])
          ),
        insert: write(stored.insert),
        update: write(stored.update),
        markDeleted: write(stored.markDeleted),
        recordFailure: write(stored.recordFailure),
        recordSuccess: write(stored.recordSuccess),
        claimTrial: write(stored.claimTrial)
      })
    })
  )

  static readonly layerMemory = Layer.effect(
    ProviderConnectionsRepository,
    Effect.map(MemoryStore, (store) => {
      type Row = {
        readonly organizationId: string
        readonly connection: ProviderConnection
        readonly deleted: boolean
        readonly trialUntil: DateTime.Utc | null
      }
      const rows = () => store.table<Row>("connections")
      const secrets = () => store.table<string>("connection_secrets")
      const ofTenant = (tenant: Tenant, withDeleted = false) =>
        [...rows().values()]
          .filter((row) =>
            row.organizationId === tenant.organizationId && row.connection.livemode === tenant.livemode &&
            (withDeleted || !row.deleted)
          )
          .sort((a, b) => a.connection.created_at.epochMillis - b.connection.created_at.epochMillis)
      const change = (id: string, changes: (row: Row) => Partial<Row>) => {
        const row = rows().get(id)!
        const next = { ...row, ...changes(row) }
        rows().set(id, next)
        return next
      }
      const withConnection = (connection: ProviderConnection, fields: Partial<ProviderConnection>) => new ProviderConnection({ ...connection, ...fields })
      return {
        insert: (organizationId, connection) =>
          Effect.sync(() => void rows().set(connection.id, { organizationId, connection, deleted: false, trialUntil: null })),
        update: (_, connection) =>
          Effect.sync(() =>
            void change(connection.id, (row) => ({
              connection: withConnection(connection, {
                consecutive_failures: row.connection.consecutive_failures,
                circuit_retry_at: row.connection.circuit_retry_at,
                status: connection.status === "disabled" || row.connection.status !== "error" ? connection.status : "error"
              })
            }))
          ),
        find: (tenant, id) => Effect.sync(() => Option.fromNullable(ofTenant(tenant).find((row) => row.connection.id === id)?.connection)),
        lock: (tenant, id) => Effect.sync(() => Option.fromNullable(ofTenant(tenant).find((row) => row.connection.id === id)?.connection)),
        findByName: (tenant, name) => Effect.sync(() => Option.fromNullable(ofTenant(tenant).find((row) => row.connection.name === name)?.connection)),
        findByNameEver: (tenant, name) =>
          Effect.sync(() => Option.fromNullable(ofTenant(tenant, true).find((row) => row.connection.name === name)?.connection)),
        findOwned: (id) =>
          Effect.sync(() => {
            const row = rows().get(id)
            return row === undefined || row.deleted ? Option.none() : Option.some({
              tenant: { organizationId: row.organizationId, livemode: row.connection.livemode },
              connection: row.connection
            })
          }),
        list: (tenant) => Effect.sync(() => ofTenant(tenant).map((row) => row.connection)),
        page: (tenant, page) => pageOf(ofTenant(tenant).map((row) => row.connection), () => true, page),
        markDeleted: (_, id, at) =>
          Effect.sync(() =>
            void change(id, (row) => ({
              deleted: true,
              connection: withConnection(row.connection, { status: "disabled", updated_at: at })
            }))
          ),
        findSealedSecret: (connectionId, kind) => Effect.sync(() => Option.fromNullable(secrets().get(`${connectionId}/${kind}`))),
        saveSealedSecret: (connectionId, kind, sealed) =>
          Effect.sync(() => {
            if (sealed === null) secrets().delete(`${connectionId}/${kind}`)
            else secrets().set(`${connectionId}/${kind}`, sealed)
          }),
        recordFailure: (connectionId, { now, reason, retryAt, threshold }) =>
          Effect.sync(() => {
            const before = rows().get(connectionId)!.connection
            const failures = before.consecutive_failures + 1
            const opens = before.status === "active" && failures >= threshold
            const open = opens || before.status === "error"
            const after = change(connectionId, (row) => ({
              trialUntil: null,
              connection: withConnection(row.connection, {
                consecutive_failures: failures,
                last_error: reason,
                last_error_at: now,
                status: open ? "error" : row.connection.status,
                circuit_retry_at: open ? retryAt : row.connection.circuit_retry_at,
                updated_at: now
              })
            }))
            return { connection: after.connection, opened: opens }
          }),
        recordSuccess: (connectionId, now) =>
          Effect.sync(() => {
            const before = rows().get(connectionId)!.connection
            if (before.consecutive_failures === 0 && before.status !== "error") return
            change(connectionId, (row) => ({
              trialUntil: null,
              connection: withConnection(row.connection, {
                consecutive_failures: 0,
                status: row.connection.status === "error" ? "active" : row.connection.status,
                // A call got through: the connection is healthy again, and its last error is history.
                last_error: null,
                last_error_at: null,
                circuit_retry_at: null,
                updated_at: now
              })
            }))
          }),
        claimTrial: (connectionId, now, until) =>
          Effect.sync(() => {
            const row = rows().get(connectionId)
            if (
              row === undefined || row.connection.status !== "error" || row.connection.circuit_retry_at === null ||
              DateTime.lessThan(now, row.connection.circuit_retry_at) ||
              (row.trialUntil !== null && !DateTime.lessThan(row.trialUntil, now))
            ) return false
            change(connectionId, () => ({ trialUntil: until }))
            return true
          })
      }
    })
  )
}
