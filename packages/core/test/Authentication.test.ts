import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Authentication } from "../src/features/tenancy/Authentication.js"
import { Organizations } from "../src/features/tenancy/Organizations.js"
import { ApiKeysRepository } from "../src/ports/ApiKeysRepository.js"
import { makeTestServices } from "./support/TestServices.js"

describe("Authentication", () => {
  it.effect("accepts a created key for its organization and mode, and stores only its hash", () =>
    Effect.gen(function*() {
      const organizations = yield* Organizations
      const auth = yield* Authentication
      const org = yield* organizations.create("Acme")
      const test = yield* organizations.createKey(org.id, false)
      const live = yield* organizations.createKey(org.id, true)
      expect(test.secret).toMatch(/^sk_test_[0-9A-Za-z]{40}$/)
      expect(live.secret).toMatch(/^sk_live_[0-9A-Za-z]{40}$/)
      expect(yield* auth.authenticate(test.secret)).toEqual({ organizationId: org.id, livemode: false })
      expect(yield* auth.authenticate(live.secret)).toEqual({ organizationId: org.id, livemode: true })

      const stored = yield* (yield* ApiKeysRepository).listForOrganization(org.id)
      const serialized = JSON.stringify(stored)
      expect(serialized).not.toContain(test.secret)
      expect(serialized).not.toContain(test.secret.slice(8, 30))
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("refuses missing, malformed, unknown and revoked keys alike", () =>
    Effect.gen(function*() {
      const organizations = yield* Organizations
      const auth = yield* Authentication
      const org = yield* organizations.create("Acme")
      const { key, secret } = yield* organizations.createKey(org.id, false)
      for (const token of ["", "sk_test_short", "pk_test_" + "a".repeat(40), "sk_test_" + "b".repeat(40)]) {
        expect((yield* Effect.flip(auth.authenticate(token)))._tag).toBe("AuthenticationFailed")
      }
      yield* organizations.revokeKey(key.id)
      expect((yield* Effect.flip(auth.authenticate(secret)))._tag).toBe("AuthenticationFailed")
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("a publishable key opens only the card form's door, and a secret key never opens it", () =>
    Effect.gen(function*() {
      const organizations = yield* Organizations
      const auth = yield* Authentication
      const org = yield* organizations.create("Acme")
      const publishable = yield* organizations.createKey(org.id, false, "publishable")
      const live = yield* organizations.createKey(org.id, true, "publishable")
      const secret = yield* organizations.createKey(org.id, false)
      expect(publishable.secret).toMatch(/^pk_test_[0-9A-Za-z]{40}$/)
      expect(live.secret).toMatch(/^pk_live_[0-9A-Za-z]{40}$/)
      expect((yield* auth.identifyPublishable(publishable.secret)).tenant).toEqual({ organizationId: org.id, livemode: false })
      expect((yield* auth.identifyPublishable(live.secret)).tenant).toEqual({ organizationId: org.id, livemode: true })
      // Everywhere else it is refused, and told why.
      expect((yield* Effect.flip(auth.identify(publishable.secret))).reason).toBe("publishable")
      expect((yield* Effect.flip(auth.identifyPublishable(secret.secret))).reason).toBe("malformed")
      // Stored like a secret key: its hash, never the key.
      expect(JSON.stringify(yield* (yield* ApiKeysRepository).listForOrganization(org.id))).not.toContain(publishable.secret.slice(8))
      yield* organizations.revokeKey(publishable.key.id)
      expect((yield* Effect.flip(auth.identifyPublishable(publishable.secret))).reason).toBe("unknown")
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("refuses a key revoked after it was accepted (its hash remembered by the process)", () =>
    Effect.gen(function*() {
      const organizations = yield* Organizations
      const auth = yield* Authentication
      const org = yield* organizations.create("Acme")
      const { key, secret } = yield* organizations.createKey(org.id, false)
      expect(yield* auth.authenticate(secret)).toEqual({ organizationId: org.id, livemode: false })
      expect(yield* auth.authenticate(secret)).toEqual({ organizationId: org.id, livemode: false })
      yield* organizations.revokeKey(key.id)
      expect((yield* Effect.flip(auth.authenticate(secret)))._tag).toBe("AuthenticationFailed")
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("imports a chosen development key once", () =>
    Effect.gen(function*() {
      const organizations = yield* Organizations
      const org = yield* organizations.create("Dev")
      const secret = "sk_test_" + "D".repeat(32)
      const first = yield* organizations.importKey(org.id, secret)
      const second = yield* organizations.importKey(org.id, secret)
      expect(second.id).toBe(first.id)
      expect((yield* Effect.flip(organizations.importKey(org.id, "nope")))._tag).toBe("InvalidApiKey")
      expect(yield* (yield* Authentication).authenticate(secret)).toEqual({ organizationId: org.id, livemode: false })
    }).pipe(Effect.provide(makeTestServices().layer)))
})
