import { it } from "@effect/vitest"
import { Effect, Either } from "effect"
import * as fc from "fast-check"
import { describe, expect } from "vitest"
import { KeyProvider, localKeyProvider, openCard, sealCard } from "../src/index.js"

const key = (seed: number) => new Uint8Array(32).map((_, index) => (seed * 31 + index * 7) & 255)
const keyring = (versions: ReadonlyArray<number>) => localKeyProvider(new Map(versions.map((version) => [version, key(version)])), "test")

const run = <A, E>(provider: KeyProvider["Type"], effect: Effect.Effect<A, E, KeyProvider>) =>
  Effect.runSync(Effect.either(Effect.provideService(effect, KeyProvider, provider)))

const cardId = fc.stringMatching(/^pm_[0-9A-Z]{30}$/)
const plaintext = fc.uint8Array({ minLength: 1, maxLength: 300 })

describe("envelope encryption", () => {
  it("opens what it sealed, for any card", () =>
    fc.assert(fc.property(cardId, plaintext, (id, data) => {
      const provider = keyring([1])
      const sealed = Either.getOrThrow(run(provider, sealCard(id, data)))
      expect(sealed.ciphertext).not.toEqual(data)
      expect(Either.getOrThrow(run(provider, openCard(id, sealed)))).toEqual(data)
    })))

  it("fails closed on a flipped bit anywhere in the ciphertext or the wrapped key", () =>
    fc.assert(fc.property(cardId, plaintext, fc.boolean(), fc.nat(), fc.integer({ min: 0, max: 7 }), (id, data, inKey, at, bit) => {
      const provider = keyring([1])
      const sealed = Either.getOrThrow(run(provider, sealCard(id, data)))
      const target = new Uint8Array(inKey ? sealed.wrappedKey : sealed.ciphertext)
      target[at % target.length]! ^= 1 << bit
      const tampered = inKey ? { ...sealed, wrappedKey: target } : { ...sealed, ciphertext: target }
      expect(Either.isLeft(run(provider, openCard(id, tampered)))).toBe(true)
    })))

  it("fails closed when a row's data is moved to another card (swapped rows)", () =>
    fc.assert(fc.property(cardId, cardId, plaintext, (first, second, data) => {
      fc.pre(first !== second)
      const provider = keyring([1])
      const sealed = Either.getOrThrow(run(provider, sealCard(first, data)))
      expect(Either.isLeft(run(provider, openCard(second, sealed)))).toBe(true)
      const other = Either.getOrThrow(run(provider, sealCard(second, data)))
      expect(Either.isLeft(run(provider, openCard(first, { ...sealed, wrappedKey: other.wrappedKey })))).toBe(true)
    })))

  it("fails closed under a wrong key version, and opens old versions after a new one is added", () =>
    fc.assert(fc.property(cardId, plaintext, (id, data) => {
      const old = keyring([1])
      const sealed = Either.getOrThrow(run(old, sealCard(id, data)))
      expect(sealed.keyVersion).toBe(1)
      expect(Either.isLeft(run(old, openCard(id, { ...sealed, keyVersion: 2 })))).toBe(true)
      const rotated = keyring([1, 2])
      expect(Either.getOrThrow(run(rotated, openCard(id, sealed)))).toEqual(data)
      expect(Either.getOrThrow(run(rotated, sealCard(id, data))).keyVersion).toBe(2)
      expect(Either.isLeft(run(rotated, openCard(id, { ...sealed, keyVersion: 2 })))).toBe(true)
      // Another keyring's key 1 is not this one's.
      const stranger = localKeyProvider(new Map([[1, key(99)]]), "test")
      expect(Either.isLeft(run(stranger, openCard(id, sealed)))).toBe(true)
    })))
})
