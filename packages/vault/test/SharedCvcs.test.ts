import { it } from "@effect/vitest"
import { CardVault, IdGenerator, type Tenant } from "@orchestrator/core"
import { Effect, Layer, Redacted, TestClock } from "effect"
import { Redis } from "ioredis"
import { describe, expect } from "vitest"
import { CardVaultLive, KeyProvider, localKeyProvider, SharedCvcsRedis, VaultStore, VaultStoreMemory } from "../src/index.js"

/** The machine's Redis (CI starts it); REDIS_URL points elsewhere. */
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379"
const TTL = 10 * 60_000

const keys = Layer.succeed(KeyProvider, localKeyProvider(new Map([[1, new Uint8Array(32).fill(7)]]), "test"))
const tenant: Tenant = { organizationId: "org_raw", livemode: false }
const visa = { type: "card" as const, card: { number: "4242 4242 4242 4242", exp_month: 12, exp_year: 2034, cvc: "737" } }
const use = (paymentId: string) => ({ purpose: "authorization" as const, paymentId, connection: "adyen_eu" })

/** Two processes of the service: one card table between them, each its own vault, Redis client and memory. */
const twoProcesses = (url: string, prefix: string) =>
  Effect.gen(function*() {
    const store = yield* Layer.build(VaultStoreMemory)
    const processOf = () =>
      Layer.build(
        CardVaultLive({ rawCardData: () => true, cvcTtlMillis: TTL, fingerprintKey: new Uint8Array(32).fill(3) }).pipe(
          Layer.provide(Layer.mergeAll(keys, IdGenerator.layer, SharedCvcsRedis(url, { prefix }), Layer.succeedContext(store)))
        )
      ).pipe(Effect.map((context) => context.unsafeMap.get(CardVault.key) as CardVault["Type"]))
    return [yield* processOf(), yield* processOf(), store.unsafeMap.get(VaultStore.key) as VaultStore["Type"]] as const
  })

const redisKeys = (redis: Redis, prefix: string) => Effect.promise(() => redis.keys(`${prefix}*`))
const cvcOf = (card: { readonly cvc: Redacted.Redacted<string> | null }) => card.cvc === null ? null : Redacted.value(card.cvc)

describe("security codes shared through Redis", () => {
  it.scoped("a card tokenized on one process is authorized with its CVC on the other, once; Redis holds nothing after", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 10, 29))
      const prefix = `test:${Math.random().toString(36).slice(2)}:`
      const redis = yield* Effect.acquireRelease(Effect.sync(() => new Redis(REDIS_URL)), (client) => Effect.sync(() => client.disconnect()))
      const [first, second] = yield* twoProcesses(REDIS_URL, prefix)

      const card = yield* first.tokenize(tenant, visa)
      // One key, named by the card id alone, holding the code sealed (never in clear), for the TTL.
      expect(yield* redisKeys(redis, prefix)).toEqual([`${prefix}vault:cvc:${card.id}`])
      const held = yield* Effect.promise(() => redis.get(`${prefix}vault:cvc:${card.id}`))
      expect(held).toMatch(/^1\.[A-Za-z0-9+/]+=*$/)
      expect(Buffer.from(held!.slice(2), "base64").toString("latin1")).not.toContain("737")
      const ttl = yield* Effect.promise(() => redis.pttl(`${prefix}vault:cvc:${card.id}`))
      expect(ttl).toBeGreaterThan(TTL - 60_000)
      expect(ttl).toBeLessThanOrEqual(TTL)

      // The other process authorizes with it: taken from Redis at once (GETDEL), kept only for this
      // payment's sends (a failover's next PSP gets it too), then destroyed by the PSP's answer.
      expect(cvcOf(yield* second.reveal(tenant, card.id, use("pay_1")))).toBe("737")
      expect(yield* redisKeys(redis, prefix)).toEqual([])
      expect(cvcOf(yield* second.reveal(tenant, card.id, use("pay_1")))).toBe("737")
      // Taken: the first process finds no code to send.
      expect(cvcOf(yield* first.reveal(tenant, card.id, use("pay_x")))).toBeNull()
      yield* second.authorized(tenant, card.id, null)

      // The second payment carries none, on either process.
      expect(cvcOf(yield* second.reveal(tenant, card.id, use("pay_2")))).toBeNull()
      expect(cvcOf(yield* first.reveal(tenant, card.id, use("pay_3")))).toBeNull()
      expect(yield* redisKeys(redis, prefix)).toEqual([])

      // An authorization whose PSP never asked for the card still ends the code; so does deleting the card.
      const other = yield* first.tokenize(tenant, visa)
      yield* second.authorized(tenant, other.id, null)
      const deleted = yield* first.tokenize(tenant, visa)
      yield* second.destroy(tenant, deleted.id)
      expect(yield* redisKeys(redis, prefix)).toEqual([])
    }))

  it.scoped("a code moved to another card's key does not open: the payment goes without it", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 10, 29))
      const prefix = `test:${Math.random().toString(36).slice(2)}:`
      const redis = yield* Effect.acquireRelease(Effect.sync(() => new Redis(REDIS_URL)), (client) => Effect.sync(() => client.disconnect()))
      const [first, second] = yield* twoProcesses(REDIS_URL, prefix)
      const one = yield* first.tokenize(tenant, visa)
      const two = yield* first.tokenize(tenant, { ...visa, card: { ...visa.card, cvc: "111" } })
      const sealed = yield* Effect.promise(() => redis.get(`${prefix}vault:cvc:${one.id}`))
      yield* Effect.promise(() => redis.set(`${prefix}vault:cvc:${two.id}`, sealed!))
      expect(cvcOf(yield* second.reveal(tenant, two.id, use("pay_1")))).toBeNull()
      yield* Effect.promise(() => redis.del(`${prefix}vault:cvc:${one.id}`))
    }))

  it.scoped("with Redis down, a process keeps the code it was given and the card is still vaulted", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 10, 29))
      const [first] = yield* twoProcesses("redis://127.0.0.1:1", "down:")
      const card = yield* first.tokenize(tenant, visa)
      expect(cvcOf(yield* first.reveal(tenant, card.id, use("pay_1")))).toBe("737")
    }), { timeout: 20_000 })
})
