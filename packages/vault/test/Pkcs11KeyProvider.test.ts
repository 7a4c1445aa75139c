import { softHsmToken } from "@orchestrator/testing"
import { Effect, Either, Exit, Redacted } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { findKeks, generateKek, KeyProvider, openCard, openTokenSession, pkcs11KeyProvider, type Pkcs11Settings, sealCard } from "../src/index.js"

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)
/** The provider over the token for `use`, its session closed afterwards. */
const withProvider = <A>(settings: Pkcs11Settings, use: (provider: KeyProvider["Type"]) => Effect.Effect<A, unknown>) =>
  run(Effect.scoped(Effect.flatMap(pkcs11KeyProvider(settings), use)))
const startFailure = (settings: Pkcs11Settings) => run(Effect.scoped(Effect.flip(pkcs11KeyProvider(settings)))).then((failure) => failure.message)

const context = (text: string) => new TextEncoder().encode(text)

describe("the PKCS#11 key provider on a SoftHSM token", () => {
  it("wraps in the token and unwraps any data key, under its context", async () => {
    const token = softHsmToken()
    await run(generateKek(token, 1))
    await withProvider(token, (provider) =>
      Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.stringMatching(/^pm_[0-9A-Z]{30}$/), async (dataKey, id) => {
            const { version, wrapped } = await run(provider.wrap(dataKey, context(id)))
            expect(version).toBe(1)
            expect(Buffer.from(wrapped).includes(Buffer.from(dataKey))).toBe(false)
            expect(await run(provider.unwrap(version, wrapped, context(id)))).toEqual(dataKey)
          }),
          { numRuns: 200 }
        )
      ))
  })

  it("fails closed on a changed bit, another context or a version it does not hold", async () => {
    const token = softHsmToken()
    await run(generateKek(token, 1))
    await withProvider(token, (provider) =>
      Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.nat(), async (dataKey, bit) => {
            const { wrapped } = await run(provider.wrap(dataKey, context("pm_A")))
            const flipped = Uint8Array.from(wrapped)
            flipped[(bit >> 3) % flipped.length]! ^= 1 << (bit & 7)
            const failures = await Promise.all([
              run(Effect.flip(provider.unwrap(1, flipped, context("pm_A")))),
              run(Effect.flip(provider.unwrap(1, wrapped, context("pm_B")))),
              run(Effect.flip(provider.unwrap(2, wrapped, context("pm_A")))),
              run(Effect.flip(provider.unwrap(1, wrapped.subarray(0, 20), context("pm_A"))))
            ])
            expect(failures.map((failure) => failure._tag)).toEqual(Array(4).fill("VaultKeyFailure"))
            expect(failures[2]!.reason).toBe("no key of version 2")
            // The session is fine after a failed decryption: the next unwrap works.
            expect(await run(provider.unwrap(1, wrapped, context("pm_A")))).toEqual(dataKey)
          }),
          { numRuns: 50 }
        )
      ))
  })

  it("wraps new cards under the newest version and still opens the old ones", async () => {
    const token = softHsmToken()
    await run(generateKek(token, 1))
    const sealed = await withProvider(token, (provider) =>
      Effect.map(
        Effect.all([sealCard("pm_old", new Uint8Array([1, 2, 3])).pipe(Effect.provideService(KeyProvider, provider))]),
        ([card]) => ({ card })
      ))
    await run(generateKek(token, 2))
    await withProvider(token, (provider) =>
      Effect.gen(function*() {
        expect(provider.currentVersion).toBe(2)
        expect(yield* openCard("pm_old", sealed.card).pipe(Effect.provideService(KeyProvider, provider))).toEqual(new Uint8Array([1, 2, 3]))
        const fresh = yield* provider.wrap(new Uint8Array(32).fill(7), context("pm_new"))
        expect(fresh.version).toBe(2)
        // The version is bound to the wrapped key: relabelled as version 1, it opens under nothing.
        expect(Either.isLeft(yield* Effect.either(provider.unwrap(1, fresh.wrapped, context("pm_new"))))).toBe(true)
      }))
  })

  it("makes keys that never leave the token: sensitive, not extractable, its value unreadable; a second copy refused", async () => {
    const token = softHsmToken()
    expect(await run(generateKek(token, 1))).toBe("orchestrator-kek-1")
    expect(await run(Effect.flip(generateKek(token, 1)))).toMatchObject({ message: expect.stringContaining("already has a key labelled orchestrator-kek-1") })
    await run(Effect.scoped(Effect.map(openTokenSession(token), (session) => {
      const { library, pkcs11 } = session
      const [kek] = findKeks(session, "orchestrator-kek-")
      const flags = pkcs11.C_GetAttributeValue(session.session, kek!.handle, [{ type: library.CKA_SENSITIVE }, { type: library.CKA_EXTRACTABLE }])
      expect(flags.map((flag) => flag.value?.[0])).toEqual([1, 0])
      expect(() => pkcs11.C_GetAttributeValue(session.session, kek!.handle, [{ type: library.CKA_VALUE }])).toThrow(/ATTRIBUTE_SENSITIVE/)
    })))
    expect(await withProvider(token, (provider) => Effect.succeed(provider.origin))).toBe("PKCS#11 token orchestrator-test")
  })

  it("refuses a KEK that could leave the token", async () => {
    const token = softHsmToken()
    await run(
      Effect.scoped(
        Effect.map(
          openTokenSession(token, { readWrite: true }),
          ({ library, pkcs11, session }) =>
            pkcs11.C_GenerateKey(session, { mechanism: library.CKM_AES_KEY_GEN }, [
              { type: library.CKA_CLASS, value: library.CKO_SECRET_KEY },
              { type: library.CKA_KEY_TYPE, value: library.CKK_AES },
              { type: library.CKA_VALUE_LEN, value: 32 },
              { type: library.CKA_LABEL, value: "orchestrator-kek-1" },
              { type: library.CKA_TOKEN, value: true },
              { type: library.CKA_PRIVATE, value: true },
              { type: library.CKA_SENSITIVE, value: false },
              { type: library.CKA_EXTRACTABLE, value: true },
              { type: library.CKA_ENCRYPT, value: true },
              { type: library.CKA_DECRYPT, value: true }
            ])
        )
      )
    )
    expect(await startFailure(token)).toBe("PKCS#11: the key orchestrator-kek-1 can leave the token (CKA_EXTRACTABLE): refused")
  })

  it("refuses to start with a one-line reason: no token, a wrong PIN, no key with the prefix, no module", async () => {
    const token = softHsmToken()
    expect(await startFailure(token)).toContain("no AES key labelled orchestrator-kek-<version> in token \"orchestrator-test\"")
    await run(generateKek(token, 1))
    expect(await startFailure({ ...token, token: "elsewhere" })).toContain("no token labelled \"elsewhere\"")
    const wrongPin = await startFailure({ ...token, pin: Redacted.make("999999") })
    expect(wrongPin).toContain("the PIN is wrong")
    expect(wrongPin).not.toContain("999999")
    expect(await startFailure({ ...token, keyLabel: "payments-kek-" })).toContain("no AES key labelled payments-kek-<version>")
    expect(await startFailure({ ...token, module: "/nonexistent/libpkcs11.so" })).toContain("/nonexistent/libpkcs11.so")
    expect(wrongPin.split("\n")).toHaveLength(1)
    // After every refusal the library is free again: a good start still works.
    expect(Exit.isSuccess(await Effect.runPromiseExit(Effect.scoped(pkcs11KeyProvider(token))))).toBe(true)
  })
})
