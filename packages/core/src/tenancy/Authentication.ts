import { Context, Data, Effect, Layer, Option } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import { parseSecretKey } from "./ApiKey.js"
import { ApiKeysRepository } from "./ApiKeysRepository.js"
import { constantTimeEqual, hashApiKey, KeyMaterial } from "./KeyMaterial.js"

/** Missing, malformed, unknown or revoked key. One error for all, so a caller learns nothing more. */
export class AuthenticationFailed extends Data.TaggedError("AuthenticationFailed")<{
  readonly reason: "missing" | "malformed" | "unknown"
}> {}

/** A key that checked out: whom it acts for, and which key it is (rate limits count per key). */
export interface AuthenticatedKey {
  readonly tenant: Tenant
  readonly keyId: string
}

/** Turns a presented secret key into the tenant it may act for. */
export class Authentication extends Context.Tag("core/Authentication")<Authentication, {
  readonly identify: (token: string) => Effect.Effect<AuthenticatedKey, AuthenticationFailed>
  readonly authenticate: (token: string) => Effect.Effect<Tenant, AuthenticationFailed>
}>() {
  static readonly layer = Layer.effect(
    Authentication,
    Effect.gen(function*() {
      const keys = yield* ApiKeysRepository
      const material = yield* KeyMaterial
      const identify = Effect.fn("Authentication.identify")(function*(token: string) {
        if (token === "") return yield* new AuthenticationFailed({ reason: "missing" })
        const parsed = parseSecretKey(token)
        if (Option.isNone(parsed)) return yield* new AuthenticationFailed({ reason: "malformed" })
        const hash = yield* hashApiKey(material.apiKeyHashing, token)
        const found = yield* keys.findByHash(hash)
        if (
          Option.isNone(found) || found.value.revoked_at !== null ||
          found.value.livemode !== parsed.value.livemode || !constantTimeEqual(found.value.key_hash, hash)
        ) {
          return yield* new AuthenticationFailed({ reason: "unknown" })
        }
        return {
          tenant: { organizationId: found.value.organization_id, livemode: found.value.livemode },
          keyId: found.value.id
        }
        })
      return { identify, authenticate: (token) => Effect.map(identify(token), ({ tenant }) => tenant) }
    })
  )
}
