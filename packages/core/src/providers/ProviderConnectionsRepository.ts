import { Context, Effect, Layer, Option } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import { MemoryStore } from "../memory/MemoryStore.js"
import type { SecretKind } from "./ConnectionSecrets.js"
import type { ProviderConnection } from "./ProviderConnection.js"

export class ProviderConnectionsRepository extends Context.Tag("core/ProviderConnectionsRepository")<
  ProviderConnectionsRepository,
  {
    readonly insert: (organizationId: string, connection: ProviderConnection) => Effect.Effect<void>
    readonly update: (organizationId: string, connection: ProviderConnection) => Effect.Effect<void>
    readonly findByName: (tenant: Tenant, name: string) => Effect.Effect<Option.Option<ProviderConnection>>
    readonly list: (tenant: Tenant) => Effect.Effect<ReadonlyArray<ProviderConnection>>
    /** A secret as stored: encrypted, never decrypted here. */
    readonly findSealedSecret: (connectionId: string, kind: SecretKind) => Effect.Effect<Option.Option<string>>
    readonly saveSealedSecret: (connectionId: string, kind: SecretKind, sealed: string | null) => Effect.Effect<void>
  }
>() {
  static readonly layerMemory = Layer.effect(
    ProviderConnectionsRepository,
    Effect.map(MemoryStore, (store) => {
      const rows = () => store.table<{ organizationId: string; connection: ProviderConnection }>("connections")
      const secrets = () => store.table<string>("connection_secrets")
      const save = (organizationId: string, connection: ProviderConnection) =>
        Effect.sync(() => void rows().set(connection.id, { organizationId, connection }))
      const ofTenant = (tenant: Tenant) =>
        [...rows().values()]
          .filter((row) => row.organizationId === tenant.organizationId && row.connection.livemode === tenant.livemode)
          .map((row) => row.connection)
      return {
        insert: save,
        update: save,
        findByName: (tenant, name) =>
          Effect.sync(() => Option.fromNullable(ofTenant(tenant).find((connection) => connection.name === name))),
        list: (tenant) =>
          Effect.sync(() => ofTenant(tenant).sort((a, b) => a.created_at.epochMillis - b.created_at.epochMillis)),
        findSealedSecret: (connectionId, kind) =>
          Effect.sync(() => Option.fromNullable(secrets().get(`${connectionId}/${kind}`))),
        saveSealedSecret: (connectionId, kind, sealed) =>
          Effect.sync(() => {
            if (sealed === null) secrets().delete(`${connectionId}/${kind}`)
            else secrets().set(`${connectionId}/${kind}`, sealed)
          })
      }
    })
  )
}
