import { Context, type DateTime, Effect, Layer, Option } from "effect"
import { ApiKey, type ApiKeyKind, generateApiKey, hashApiKey, hintOf, parseSecretKey } from "../../domain/tenancy/ApiKey.js"
import {
  defaultProviderOf,
  displayNameOf,
  Organization,
  type OrganizationView,
  paymentsRoutingOf,
  type UpdateOrganization
} from "../../domain/tenancy/Organization.js"
import { organizationName, type OrganizationNameInvalid, OrganizationNameTaken } from "../../domain/tenancy/OrganizationName.js"
import { ApiKeyNotFound, DefaultProviderInvalid, InvalidApiKey, OrganizationNotFound } from "../../domain/tenancy/TenancyErrors.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import { ApiKeysRepository } from "../../ports/ApiKeysRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { KeyMaterial } from "../../ports/KeyMaterial.js"
import { OrganizationsRepository } from "../../ports/OrganizationsRepository.js"
import { ProviderConnectionsRepository } from "../../ports/ProviderConnectionsRepository.js"
import { Transactions } from "../../ports/Transactions.js"
import { ProviderConnections, STARTER_CONNECTIONS } from "../connections/ProviderConnections.js"

/** The organization as a key of one mode sees it. */
const viewOf = (organization: Organization, tenant: Tenant): OrganizationView => ({
  object: "organization",
  id: organization.id,
  name: organization.name,
  display_name: displayNameOf(organization, tenant.livemode),
  default_provider: defaultProviderOf(organization, tenant.livemode),
  payments_routing: paymentsRoutingOf(organization, tenant.livemode),
  livemode: tenant.livemode,
  created_at: organization.created_at
})

/** A new organization: test payments go to the first starter connection; nothing is live yet. */
const newOrganization = (id: string, name: string, createdAt: DateTime.Utc) =>
  new Organization({
    id,
    name,
    default_provider_test: STARTER_CONNECTIONS[0],
    default_provider_live: null,
    payments_routing_test: "default",
    payments_routing_live: "default",
    created_at: createdAt
  })

/** Organizations and their keys: what the command-line tool and the embedded bootstrap manage. */
export class Organizations extends Context.Tag("core/Organizations")<Organizations, {
  /**
   * A new organization with its test-mode sandbox connections; `sandbox_a` is the default provider.
   * The name is trimmed and checked (`OrganizationName.ts`), and must be free.
   */
  readonly create: (name: string) => Effect.Effect<Organization, OrganizationNameInvalid | OrganizationNameTaken>
  /**
   * A new key, secret unless said; the returned `secret` (the key itself, `sk_…` or `pk_…`) is shown
   * once and stored only as a keyed hash, publishable keys too (another is made when one is lost).
   */
  readonly createKey: (
    organizationId: string,
    livemode: boolean,
    kind?: ApiKeyKind
  ) => Effect.Effect<{ readonly key: ApiKey; readonly secret: string }, OrganizationNotFound>
  /** Stores a key chosen outside (the embedded default's `ORCHESTRATOR_DEV_API_KEY`), once. */
  readonly importKey: (organizationId: string, secret: string) => Effect.Effect<ApiKey, InvalidApiKey>
  readonly revokeKey: (keyId: string) => Effect.Effect<ApiKey, ApiKeyNotFound>
  /**
   * The operator's choice of requests per second per key, per mode (`null`: the service's default;
   * absent: unchanged). Every process applies it within 10 seconds.
   */
  readonly setRateLimits: (
    organizationId: string,
    limits: { readonly live?: number | null; readonly test?: number | null }
  ) => Effect.Effect<Organization, OrganizationNotFound>
  readonly findByName: (name: string) => Effect.Effect<Option.Option<Organization>>
  /** The organization as a key of one mode sees it: that mode's default provider and routing. */
  readonly settings: (tenant: Tenant) => Effect.Effect<OrganizationView>
  readonly updateSettings: (tenant: Tenant, input: UpdateOrganization) => Effect.Effect<
    OrganizationView,
    DefaultProviderInvalid
  >
}>() {
  static readonly layer = Layer.effect(
    Organizations,
    Effect.gen(function*() {
      const organizations = yield* OrganizationsRepository
      const keys = yield* ApiKeysRepository
      const connections = yield* ProviderConnectionsRepository
      const providerConnections = yield* ProviderConnections
      const transactions = yield* Transactions
      const ids = yield* IdGenerator
      const material = yield* KeyMaterial

      const load = (id: string, find = organizations.find) =>
        Effect.flatMap(
          find(id),
          Option.match({
            onNone: () => Effect.dieMessage(`organization ${id} of an authenticated key is gone`),
            onSome: Effect.succeed
          })
        )

      const storeKey = (organizationId: string, secret: string, livemode: boolean, kind: ApiKeyKind = "secret") =>
        Effect.gen(function*() {
          const hash = yield* hashApiKey(material.apiKeyHashing, secret)
          const existing = yield* keys.findByHash(hash)
          if (Option.isSome(existing)) return existing.value
          const key = new ApiKey({
            id: yield* ids.make("key"),
            organization_id: organizationId,
            livemode,
            kind,
            key_hash: hash,
            hint: hintOf(secret),
            created_at: yield* now,
            revoked_at: null
          })
          yield* keys.insert(key)
          return key
        })

      return {
        create: (raw) =>
          transactions.run(Effect.gen(function*() {
            const name = yield* organizationName(raw)
            if (Option.isSome(yield* organizations.findByName(name))) return yield* new OrganizationNameTaken({ name })
            const organization = newOrganization(yield* ids.make("org"), name, yield* now)
            yield* organizations.insert(organization)
            yield* providerConnections.createStarters(organization.id)
            return organization
          })),
        createKey: (organizationId, livemode, kind = "secret") =>
          Effect.gen(function*() {
            const organization = yield* organizations.find(organizationId)
            if (Option.isNone(organization)) return yield* new OrganizationNotFound({ id: organizationId })
            const secret = generateApiKey(livemode, kind)
            return { key: yield* storeKey(organizationId, secret, livemode, kind), secret }
          }),
        importKey: (organizationId, secret) =>
          Effect.gen(function*() {
            const parsed = parseSecretKey(secret)
            if (Option.isNone(parsed)) {
              return yield* new InvalidApiKey({
                reason: "expected sk_test_ or sk_live_ followed by 32 to 128 letters and digits"
              })
            }
            return yield* storeKey(organizationId, secret, parsed.value.livemode)
          }),
        revokeKey: (keyId) =>
          Effect.gen(function*() {
            const key = yield* keys.find(keyId)
            if (Option.isNone(key)) return yield* new ApiKeyNotFound({ id: keyId })
            if (key.value.revoked_at !== null) return key.value
            const revoked = new ApiKey({ ...key.value, revoked_at: yield* now })
            yield* keys.update(revoked)
            return revoked
          }),
        findByName: (name) => organizations.findByName(name),
        settings: (tenant) => Effect.map(load(tenant.organizationId), (organization) => viewOf(organization, tenant)),
        setRateLimits: (organizationId, limits) =>
          transactions.run(Effect.gen(function*() {
            const organization = yield* organizations.lock(organizationId)
            if (Option.isNone(organization)) return yield* new OrganizationNotFound({ id: organizationId })
            const updated = new Organization({
              ...organization.value,
              ...(limits.live === undefined ? {} : { rate_limit_live: limits.live }),
              ...(limits.test === undefined ? {} : { rate_limit_test: limits.test })
            })
            yield* organizations.update(updated)
            return updated
          })),
        updateSettings: (tenant, input) =>
          transactions.run(Effect.gen(function*() {
            // Held to the end: a concurrent change (the other mode's settings, a connection disabled)
            // waits, then sees this one.
            const organization = yield* load(tenant.organizationId, organizations.lock)
            if (input.default_provider !== undefined) {
              const connection = yield* connections.findByName(tenant, input.default_provider)
              const problem = Option.match(connection, {
                onNone: () => `no provider named '${input.default_provider}' in this mode`,
                onSome: (found) => (found.status === "disabled" ? `provider '${found.name}' is disabled` : undefined)
              })
              if (problem !== undefined) {
                return yield* new DefaultProviderInvalid({ provider: input.default_provider, reason: problem })
              }
            }
            const provider = input.default_provider
            const routing = input.payments_routing
            const displayName = input.display_name
            const updated = new Organization({
              ...organization,
              ...(provider === undefined ? {} : tenant.livemode ? { default_provider_live: provider } : { default_provider_test: provider }),
              ...(routing === undefined ? {} : tenant.livemode ? { payments_routing_live: routing } : { payments_routing_test: routing }),
              ...(displayName === undefined ? {} : tenant.livemode ? { display_name_live: displayName } : { display_name_test: displayName })
            })
            yield* organizations.update(updated)
            return viewOf(updated, tenant)
          }))
      }
    })
  ).pipe(Layer.provide(Layer.mergeAll(IdGenerator.layer, ProviderConnections.layer)))
}
