import { DateTime, Effect, Layer, Option } from "effect"
import { ProviderConnection } from "../domain/providers/ProviderConnection.js"
import type { Tenant } from "../domain/Tenant.js"
import { ProviderConnectionsRepository } from "../ports/ProviderConnectionsRepository.js"
import { pageOf } from "./MemoryPaging.js"
import { MemoryStore } from "./MemoryStore.js"

/** `ProviderConnectionsRepository` in memory: for the core's tests and `CoreMemory`, on the same paths production takes. */
export const MemoryProviderConnectionsRepository = Layer.effect(
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
      findByNameEver: (tenant, name) => Effect.sync(() => Option.fromNullable(ofTenant(tenant, true).find((row) => row.connection.name === name)?.connection)),
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
