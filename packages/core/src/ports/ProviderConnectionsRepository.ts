import { Context, DateTime, Effect, Option } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import { ProviderConnection } from "../domain/providers/ProviderConnection.js"
import type { SecretKind } from "../domain/providers/SecretKind.js"
import type { Tenant } from "../domain/Tenant.js"

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
>() {}
