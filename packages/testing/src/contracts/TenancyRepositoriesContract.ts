import { expect } from "@effect/vitest"
import { ApiKey, ApiKeysRepository, Organization, OrganizationsRepository, ProviderConnection, ProviderConnectionsRepository } from "@orchestrator/core"
import { Effect, Option } from "effect"
import { testConnection } from "../Connections.js"
import { at, id, newTenant, same, type StorageContractTest } from "./StorageContractFixtures.js"

/** The tenancy stores: organizations, API keys by hash, and connections found by tenant and name. */
export const tenancyRepositoriesContract = (it: StorageContractTest) => {
  it.effect("stores organizations, keys by hash and provider connections by tenant and name", () =>
    Effect.gen(function*() {
      const organizations = yield* OrganizationsRepository
      const keys = yield* ApiKeysRepository
      const connections = yield* ProviderConnectionsRepository
      const tenant = yield* newTenant
      const organization = Option.getOrThrow(yield* organizations.find(tenant.organizationId))
      same(Organization, Option.getOrThrow(yield* organizations.findByName(organization.name)), organization)
      yield* organizations.update(new Organization({ ...organization, default_provider_live: "sandbox_live" }))
      expect(Option.getOrThrow(yield* organizations.find(tenant.organizationId)).default_provider_live).toBe(
        "sandbox_live"
      )

      const key = new ApiKey({
        id: id("key"),
        organization_id: tenant.organizationId,
        livemode: true,
        key_hash: `hash_${id("key")}`,
        hint: "sk_live_…abcd",
        created_at: at(0),
        revoked_at: null
      })
      yield* keys.insert(key)
      same(ApiKey, Option.getOrThrow(yield* keys.findByHash(key.key_hash)), key)
      yield* keys.update(new ApiKey({ ...key, revoked_at: at(5) }))
      expect(Option.getOrThrow(yield* keys.find(key.id)).revoked_at).not.toBeNull()
      expect((yield* keys.listForOrganization(tenant.organizationId)).map((k) => k.id)).toEqual([key.id])

      const connection = testConnection({
        id: id("pcn"),
        supported_currencies: ["EUR", "USD"],
        settings: { latency_ms: 5, outage: false },
        base_url: "https://psp.example",
        created_at: at(0),
        updated_at: at(0)
      })
      yield* connections.insert(tenant.organizationId, connection)
      same(ProviderConnection, Option.getOrThrow(yield* connections.findByName(tenant, "sandbox_a")), connection)
      expect(Option.isNone(yield* connections.findByName({ ...tenant, livemode: true }, "sandbox_a"))).toBe(true)
      const changed = new ProviderConnection({ ...connection, status: "disabled", settings: { outage: true }, base_url: null })
      yield* connections.update(tenant.organizationId, changed)
      same(ProviderConnection, (yield* connections.list(tenant))[0]!, changed)
      // Deleted: gone from every lookup but the one stored payments make, and its name stays taken.
      yield* connections.markDeleted(tenant, connection.id, at(10))
      expect(yield* connections.list(tenant)).toEqual([])
      expect(Option.isNone(yield* connections.findByName(tenant, "sandbox_a"))).toBe(true)
      expect(Option.isNone(yield* connections.find(tenant, connection.id))).toBe(true)
      expect(Option.isNone(yield* connections.findOwned(connection.id))).toBe(true)
      expect(Option.getOrThrow(yield* connections.findByNameEver(tenant, "sandbox_a")).id).toBe(connection.id)
    }))
}
