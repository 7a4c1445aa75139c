import { Context, Effect, Layer, Option } from "effect"
import { constantTimeEqual } from "../../domain/HmacSha256.js"
import { type ApiKeyKind, hashApiKey, looksPublishable, parsePublishableKey, parseSecretKey } from "../../domain/tenancy/ApiKey.js"
import { AuthenticationFailed } from "../../domain/tenancy/TenancyErrors.js"
import type { Tenant } from "../../domain/Tenant.js"
import { ApiKeysRepository } from "../../ports/ApiKeysRepository.js"
import { KeyMaterial } from "../../ports/KeyMaterial.js"

/** A key that checked out: whom it acts for, and which key it is (rate limits count per key). */
export interface AuthenticatedKey {
  readonly tenant: Tenant
  readonly keyId: string
}

/** How many keys' hashes a process remembers (a few hundred bytes each). */
const REMEMBERED_HASHES = 10_000

/**
 * Turns a presented secret key into the tenant it may act for. The keyed hash of a key that checked
 * out is remembered for the process's life, so a client's every request does not compute it again
 * (Web Crypto: a thread hop and a promise); whether the key is known and not revoked is still asked
 * of the repository each time. Only keys that checked out are remembered: unknown ones cannot fill it.
 * `identify` takes secret keys only (a publishable key is refused as such); `identifyPublishable`
 * takes publishable keys only, for the card form's one endpoint.
 */
export class Authentication extends Context.Tag("core/Authentication")<Authentication, {
  readonly identify: (token: string) => Effect.Effect<AuthenticatedKey, AuthenticationFailed>
  readonly identifyPublishable: (token: string) => Effect.Effect<AuthenticatedKey, AuthenticationFailed>
  readonly authenticate: (token: string) => Effect.Effect<Tenant, AuthenticationFailed>
}>() {
  static readonly layer = Layer.effect(
    Authentication,
    Effect.gen(function*() {
      const keys = yield* ApiKeysRepository
      const material = yield* KeyMaterial
      const hashes = new Map<string, string>()
      const hashOf = (token: string) => {
        const known = hashes.get(token)
        return known === undefined ? hashApiKey(material.apiKeyHashing, token) : Effect.succeed(known)
      }
      const check = (token: string, kind: ApiKeyKind, parsed: Option.Option<{ readonly livemode: boolean }>) =>
        Effect.gen(function*() {
          if (Option.isNone(parsed)) return yield* new AuthenticationFailed({ reason: "malformed" })
          const hash = yield* hashOf(token)
          const found = yield* keys.findByHash(hash)
          if (
            Option.isNone(found) || found.value.revoked_at !== null || found.value.kind !== kind ||
            found.value.livemode !== parsed.value.livemode || !constantTimeEqual(found.value.key_hash, hash)
          ) {
            return yield* new AuthenticationFailed({ reason: "unknown" })
          }
          if (!hashes.has(token)) {
            if (hashes.size >= REMEMBERED_HASHES) hashes.clear()
            hashes.set(token, hash)
          }
          return {
            tenant: { organizationId: found.value.organization_id, livemode: found.value.livemode },
            keyId: found.value.id
          }
        })
      const identify = Effect.fn("Authentication.identify")(function*(token: string) {
        if (token === "") return yield* new AuthenticationFailed({ reason: "missing" })
        if (looksPublishable(token)) return yield* new AuthenticationFailed({ reason: "publishable" })
        return yield* check(token, "secret", parseSecretKey(token))
      })
      const identifyPublishable = Effect.fn("Authentication.identifyPublishable")(function*(token: string) {
        if (token === "") return yield* new AuthenticationFailed({ reason: "missing" })
        return yield* check(token, "publishable", parsePublishableKey(token))
      })
      return { identify, identifyPublishable, authenticate: (token) => Effect.map(identify(token), ({ tenant }) => tenant) }
    })
  )
}
