import { Context, Data, Effect, Layer, Option } from "effect"
import { ProviderConnection } from "../providers/ProviderConnection.js"
import { ProviderConnectionsRepository } from "../providers/ProviderConnectionsRepository.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import { now } from "../domain/Timestamp.js"
import { Transactions } from "../ports/Transactions.js"
import { ApiKey, generateSecretKey, hintOf, parseSecretKey } from "./ApiKey.js"
import { ApiKeysRepository } from "./ApiKeysRepository.js"
import { hashApiKey, KeyMaterial } from "./KeyMaterial.js"
import { Organization } from "./Organization.js"
import { OrganizationsRepository } from "./OrganizationsRepository.js"

export class OrganizationNotFound extends Data.TaggedError("OrganizationNotFound")<{ readonly id: string }> {}
export class ApiKeyNotFound extends Data.TaggedError("ApiKeyNotFound")<{ readonly id: string }> {}
export class InvalidApiKey extends Data.TaggedError("InvalidApiKey")<{ readonly reason: string }> {}

/** The two sandbox connections every new organization starts with in test mode. */
export const STARTER_CONNECTIONS = ["sandbox_a", "sandbox_b"] as const

/** Organizations and their keys: what the command-line tool and the embedded bootstrap manage. */
export class Organizations extends Context.Tag("core/Organizations")<Organizations, {
  /** A new organization with its test-mode sandbox connections; `sandbox_a` is the default provider. */
  readonly create: (name: string) => Effect.Effect<Organization>
  /** A new secret key; the returned `secret` is shown once and stored only as a keyed hash. */
  readonly createKey: (
    organizationId: string,
    livemode: boolean
  ) => Effect.Effect<{ readonly key: ApiKey; readonly secret: string }, OrganizationNotFound>
  /** Stores a key chosen outside (the embedded default's `ORCHESTRATOR_DEV_API_KEY`), once. */
  readonly importKey: (organizationId: string, secret: string) => Effect.Effect<ApiKey, InvalidApiKey>
  readonly revokeKey: (keyId: string) => Effect.Effect<ApiKey, ApiKeyNotFound>
  readonly findByName: (name: string) => Effect.Effect<Option.Option<Organization>>
}>() {
  static readonly layer = Layer.effect(
    Organizations,
    Effect.gen(function*() {
      const organizations = yield* OrganizationsRepository
      const keys = yield* ApiKeysRepository
      const connections = yield* ProviderConnectionsRepository
      const transactions = yield* Transactions
      const ids = yield* IdGenerator
      const material = yield* KeyMaterial

      const storeKey = (organizationId: string, secret: string, livemode: boolean) =>
        Effect.gen(function*() {
          const hash = yield* hashApiKey(material.apiKeyHashing, secret)
          const existing = yield* keys.findByHash(hash)
          if (Option.isSome(existing)) return existing.value
          const key = new ApiKey({
            id: yield* ids.make("key"),
            organization_id: organizationId,
            livemode,
            key_hash: hash,
            hint: hintOf(secret),
            created_at: yield* now,
            revoked_at: null
          })
          yield* keys.insert(key)
          return key
        })

      return {
        create: (name) =>
          transactions.run(Effect.gen(function*() {
            const createdAt = yield* now
            const organization = new Organization({
              id: yield* ids.make("org"),
              name,
              default_provider_test: STARTER_CONNECTIONS[0],
              default_provider_live: null,
              created_at: createdAt
            })
            yield* organizations.insert(organization)
            for (const connectionName of STARTER_CONNECTIONS) {
              yield* connections.insert(
                organization.id,
                new ProviderConnection({
                  object: "provider_connection",
                  id: yield* ids.make("pcn"),
                  name: connectionName,
                  type: "sandbox",
                  status: "active",
                  last_error: null,
                  supported_currencies: null,
                  supported_methods: null,
                  settings: {},
                  livemode: false,
                  created_at: createdAt,
                  updated_at: createdAt
                })
              )
            }
            return organization
          })),
        createKey: (organizationId, livemode) =>
          Effect.gen(function*() {
            const organization = yield* organizations.find(organizationId)
            if (Option.isNone(organization)) return yield* new OrganizationNotFound({ id: organizationId })
            const secret = generateSecretKey(livemode)
            return { key: yield* storeKey(organizationId, secret, livemode), secret }
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
        findByName: (name) => organizations.findByName(name)
      }
    })
  )
}
