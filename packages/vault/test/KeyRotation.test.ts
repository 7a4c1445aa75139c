import { it } from "@effect/vitest"
import { testDatabases } from "@orchestrator/testing"
import { Effect, Either, Exit, Layer, Logger, LogLevel, Metric, Option } from "effect"
import * as fc from "fast-check"
import { describe, expect } from "vitest"
import {
  type CardRow,
  KeyProvider,
  localKeyProvider,
  openCard,
  reportKeyVersions,
  rotateKeys,
  sealCard,
  vaultCards,
  VaultStore,
  VaultStoreMemory,
  VaultStoreSql
} from "../src/index.js"

const key = (seed: number) => new Uint8Array(32).map((_, index) => (seed * 31 + index * 7) & 255)
const keyring = (versions: ReadonlyArray<number>) => localKeyProvider(new Map(versions.map((version) => [version, key(version)])), "test")
const quiet = Logger.minimumLogLevel(LogLevel.None)

/** A card sealed under `keys` (its newest version), as the vault stores it. */
const vaulted = (keys: KeyProvider["Type"], id: string, data: Uint8Array) =>
  Effect.map(Effect.provideService(sealCard(id, data), KeyProvider, keys), (sealed): CardRow => ({
    id,
    organizationId: "org_rot",
    livemode: false,
    ...sealed,
    brand: "visa",
    last4: "4242",
    expMonth: 12,
    expYear: 2034,
    country: null,
    funding: "credit",
    fingerprint: "f",
    networkTransactionId: null,
    checkoutSessionId: null,
    createdAtMillis: 0
  }))

/** Every card's data as it opens now under `keys` (a failure as `undefined`). */
const readAll = (keys: KeyProvider["Type"], ids: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const store = yield* VaultStore
    return yield* Effect.forEach(ids, (id) =>
      Effect.flatMap(store.find("org_rot", id), (row) =>
        Effect.map(Effect.either(Effect.provideService(openCard(id, Option.getOrThrow(row)), KeyProvider, keys)), Either.getOrUndefined)))
  })

/** The store, failing like a crashed worker once `after` cards have been handed to a re-wrap. */
const crashingAfter = (store: VaultStore["Type"], after: number): VaultStore["Type"] => {
  let handed = 0
  return {
    ...store,
    rewrapBatch: (current, afterId, limit, rewrap) =>
      store.rewrapBatch(current, afterId, limit, (card) => handed++ >= after ? Effect.dieMessage("worker crashed") : rewrap(card))
  }
}

const cards = fc.uniqueArray(
  fc.record({ id: fc.stringMatching(/^pm_[0-9A-Z]{30}$/), data: fc.uint8Array({ minLength: 1, maxLength: 64 }), version: fc.constantFrom(1, 2) }),
  { selector: (card) => card.id, minLength: 1, maxLength: 25 }
)

describe("key rotation", () => {
  it("loses no card: interrupted at any point, every card opens before, during and after, and then under the new key alone", () =>
    fc.assert(
      fc.property(cards, fc.nat({ max: 30 }), fc.integer({ min: 1, max: 7 }), (set, crashAt, batch) => {
        const rotated = keyring([1, 2, 3])
        const ids = set.map((card) => card.id)
        const program = Effect.gen(function*() {
          const store = yield* VaultStore
          for (const card of set) yield* store.insert(yield* vaulted(keyring(Array.from({ length: card.version }, (_, i) => i + 1)), card.id, card.data))
          expect(yield* readAll(rotated, ids)).toEqual(set.map((card) => card.data))

          // A worker that dies part-way: what it re-wrapped is re-wrapped, the rest still opens under its old key.
          const crashed = yield* Effect.exit(rotateKeys(rotated, crashingAfter(store, crashAt), batch))
          expect(Exit.isFailure(crashed)).toBe(crashAt < set.length)
          expect(yield* readAll(rotated, ids)).toEqual(set.map((card) => card.data))

          // The next pass finishes: every card under version 3, which alone opens them all.
          yield* rotateKeys(rotated, store, batch)
          expect(yield* store.keyVersionCounts).toEqual([{ keyVersion: 3, cards: set.length }])
          expect(yield* readAll(keyring([3]), ids)).toEqual(set.map((card) => card.data))
          expect(yield* rotateKeys(rotated, store, batch)).toBe(0)
        })
        Effect.runSync(program.pipe(Effect.provide(VaultStoreMemory), Effect.provide(quiet)))
      }),
      { numRuns: 60 }
    ))

  it("fails closed: a card with a flipped bit or a wrong key version is left as it is (and still does not open); the rest rotate", () =>
    fc.assert(
      fc.property(cards, fc.nat(), fc.integer({ min: 0, max: 7 }), fc.boolean(), (set, at, bit, flip) => {
        const rotated = keyring([1, 2, 3])
        const program = Effect.gen(function*() {
          const store = yield* VaultStore
          const rows = yield* Effect.forEach(set, (card) => vaulted(keyring([1, 2]), card.id, card.data))
          const [damaged, ...rest] = rows
          const wrappedKey = new Uint8Array(damaged!.wrappedKey)
          if (flip) wrappedKey[at % wrappedKey.length]! ^= 1 << bit
          yield* store.insert({ ...damaged!, wrappedKey, keyVersion: flip ? damaged!.keyVersion : 1 })
          for (const row of rest) yield* store.insert(row)
          expect(yield* rotateKeys(rotated, store, 3)).toBe(rest.length)
          expect(yield* store.keyVersionCounts).toEqual(
            [{ keyVersion: flip ? 2 : 1, cards: 1 }, ...(rest.length > 0 ? [{ keyVersion: 3, cards: rest.length }] : [])]
          )
          const opened = yield* readAll(rotated, set.map((card) => card.id))
          expect(opened[0]).toBeUndefined()
          expect(opened.slice(1)).toEqual(set.slice(1).map((card) => card.data))
        })
        Effect.runSync(program.pipe(Effect.provide(VaultStoreMemory), Effect.provide(quiet)))
      }),
      { numRuns: 60 }
    ))
})

for (const database of testDatabases()) {
  describe(`key rotation on ${database.name}`, () => {
    it.effect("re-wraps in batches in the vault's table, and the gauge counts cards per key version", () =>
      Effect.gen(function*() {
        const store = yield* VaultStore
        // The database may hold other suites' cards (under other keys: left as they are, and counted).
        const run = Math.random().toString(36).slice(2, 8).toUpperCase().replace(/[^0-9A-Z]/g, "0").padEnd(6, "0")
        const ids = [1, 2, 3].map((n) => `pm_ROT${run}${String(n).padStart(21, "0")}`)
        const gauge = (version: number) => Effect.map(Metric.value(Metric.tagged(vaultCards, "key_version", String(version))), (state) => state.value)
        const countOf = (version: number) => Effect.map(store.keyVersionCounts, (counts) => counts.find((count) => count.keyVersion === version)?.cards ?? 0)
        for (const id of ids) yield* store.insert(yield* vaulted(keyring([1]), id, new TextEncoder().encode(id)))
        yield* reportKeyVersions(store)
        expect(yield* gauge(1)).toBe(yield* countOf(1))
        const before = yield* countOf(1)
        expect(yield* rotateKeys(keyring([1, 2]), store, 2)).toBe(3)
        yield* reportKeyVersions(store)
        expect(yield* gauge(1)).toBe(before - 3)
        expect(yield* gauge(2)).toBe(yield* countOf(2))
        expect((yield* readAll(keyring([2]), ids)).map((data) => new TextDecoder().decode(data))).toEqual(ids)
      }).pipe(Effect.provide(VaultStoreSql.pipe(Layer.provideMerge(database.layer)))))
  })
}
