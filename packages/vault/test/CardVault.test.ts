import { SqlClient } from "@effect/sql"
import { it } from "@effect/vitest"
import { CardVault, IdGenerator, type Tenant } from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing"
import { Context, Effect, Layer, Option, Redacted, TestClock } from "effect"
import { describe, expect } from "vitest"
import { CardVaultLive, KeyProvider, localKeyProvider, parseKeyring, splitKey, VaultStore, VaultStoreMemory, VaultStoreSql } from "../src/index.js"

const keys = Layer.succeed(KeyProvider, localKeyProvider(new Map([[1, new Uint8Array(32).fill(7)]]), "test"))
const vaultOn = (store: Layer.Layer<VaultStore, unknown>) =>
  CardVaultLive({ rawCardData: (organization) => organization === "org_raw", cvcTtlMillis: 5 * 60_000, fingerprintKey: new Uint8Array(32).fill(3) }).pipe(
    Layer.provideMerge(Layer.mergeAll(keys, store, IdGenerator.layer))
  )

const test: Tenant = { organizationId: "org_raw", livemode: false }
const visa = { type: "card" as const, card: { number: "4242 4242 4242 4242", exp_month: 12, exp_year: 2034, cvc: "123" } }
const use = { purpose: "authorization" as const, paymentId: "pay_1", connection: "stripe-main" }

const stores = [
  { name: "memory", layer: VaultStoreMemory },
  ...testDatabases().map((database) => ({ name: database.name, layer: VaultStoreSql.pipe(Layer.provide(database.layer)) }))
]

for (const store of stores) {
  describe(`the card vault on ${store.name}`, () => {
    it.scoped("vaults a card, shows only its facts, reveals it for a PSP call with an access record", () =>
      Effect.gen(function*() {
        yield* TestClock.setTime(Date.UTC(2026, 10, 29))
        const vault = yield* CardVault
        const created = yield* vault.tokenize(test, visa)
        expect(created.id).toMatch(/^pm_[0-9A-Z]{30}$/)
        expect(created.card).toMatchObject({ brand: "visa", last4: "4242", exp_month: 12, exp_year: 2034, country: "US", funding: "credit" })
        expect(JSON.stringify(created)).not.toContain("4242424242424242")
        const again = yield* vault.tokenize(test, visa)
        expect(again.card.fingerprint).toBe(created.card.fingerprint)
        const elsewhere = yield* vault.tokenize({ organizationId: "org_raw", livemode: true }, visa)
        expect(elsewhere.card.fingerprint).toBe(created.card.fingerprint)

        const card = yield* vault.reveal(test, created.id, use)
        expect(Redacted.value(card.number)).toBe("4242424242424242")
        expect(card.cvc === null ? null : Redacted.value(card.cvc)).toBe("123")
        expect(String(card.number)).not.toContain("4242")
        const accesses = yield* (yield* VaultStore).accesses("org_raw", created.id)
        expect(accesses).toMatchObject([{ purpose: "authorization", paymentId: "pay_1", connection: "stripe-main", livemode: false }])

        // The first authorization's outcome destroys the code; the network reference is kept.
        yield* vault.authorized(test, created.id, "ntid_123")
        const later = yield* vault.reveal(test, created.id, use)
        expect(later.cvc).toBeNull()
        expect(later.networkTransactionId).toBe("ntid_123")
        // A later charge's reference does not replace the first: merchant-initiated charges point at where the chain began.
        yield* vault.authorized(test, created.id, "ntid_456")
        expect((yield* vault.reveal(test, created.id, use)).networkTransactionId).toBe("ntid_123")

        // Another mode or organization sees nothing; a live payment is told the card is test-mode.
        expect((yield* Effect.flip(vault.retrieve({ organizationId: "org_other", livemode: false }, created.id)))._tag).toBe("PaymentMethodNotFound")
        expect((yield* Effect.flip(vault.forPayment({ organizationId: "org_raw", livemode: true }, created.id)))._tag).toBe("PaymentMethodModeMismatch")

        yield* vault.destroy(test, created.id)
        expect((yield* Effect.flip(vault.retrieve(test, created.id)))._tag).toBe("PaymentMethodNotFound")
        expect((yield* Effect.flip(vault.reveal(test, created.id, use)))._tag).toBe("PaymentMethodNotFound")
        expect((yield* Effect.flip(vault.forPayment(test, created.id)))._tag).toBe("PaymentMethodNotFound")
      }).pipe(Effect.provide(vaultOn(store.layer))))

    it.scoped("keeps a card's routing facts per process: never for another organization, and a card destroyed elsewhere is refused at its PSP call", () =>
      Effect.gen(function*() {
        yield* TestClock.setTime(Date.UTC(2026, 10, 29))
        const shared = yield* Layer.build(Layer.mergeAll(keys, store.layer, IdGenerator.layer))
        const aProcess = Effect.map(
          Layer.build(CardVaultLive({ rawCardData: () => true, fingerprintKey: new Uint8Array(32).fill(3) }).pipe(Layer.provide(Layer.succeedContext(shared)))),
          Context.get(CardVault)
        )
        const [one, two] = [yield* aProcess, yield* aProcess]
        const created = yield* one.tokenize(test, visa)
        expect(yield* one.forPayment(test, created.id)).toMatchObject({ brand: "visa", last4: "4242", fingerprint: created.card.fingerprint })
        expect((yield* Effect.flip(one.forPayment({ organizationId: "org_other", livemode: false }, created.id)))._tag).toBe("PaymentMethodNotFound")
        expect((yield* Effect.flip(one.forPayment({ ...test, livemode: true }, created.id)))._tag).toBe("PaymentMethodModeMismatch")
        expect(yield* two.forPayment(test, created.id)).toMatchObject({ last4: "4242" })

        yield* two.destroy(test, created.id)
        expect((yield* Effect.flip(two.forPayment(test, created.id)))._tag).toBe("PaymentMethodNotFound")
        // The first process still routes by the facts it kept; the card's data is gone for its PSP call.
        expect(yield* one.forPayment(test, created.id)).toMatchObject({ last4: "4242" })
        expect((yield* Effect.flip(one.reveal(test, created.id, use)))._tag).toBe("PaymentMethodNotFound")
      }))
  })
}

describe("the card vault's rules", () => {
  it.scoped("refuses raw card data unless the organization may send it, and bad cards with clear codes", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 10, 29))
      const vault = yield* CardVault
      expect((yield* Effect.flip(vault.tokenize({ organizationId: "org_plain", livemode: false }, visa)))._tag).toBe("RawCardDataDisabled")
      const refusal = (card: Partial<typeof visa.card>) => Effect.flip(vault.tokenize(test, { type: "card", card: { ...visa.card, ...card } }))
      expect((yield* refusal({ number: "4242424242424241" })).answer).toMatchObject({ code: "invalid_number", param: "card.number" })
      expect((yield* refusal({ number: "4242" })).answer).toMatchObject({ code: "invalid_number" })
      expect((yield* refusal({ number: "4242-abcd" })).answer).toMatchObject({ code: "invalid_number" })
      expect((yield* refusal({ exp_month: 13 })).answer).toMatchObject({ code: "invalid_expiry_month", param: "card.exp_month" })
      expect((yield* refusal({ exp_year: 2026, exp_month: 10 })).answer).toMatchObject({ code: "expired_card" })
      expect((yield* refusal({ cvc: "12" })).answer).toMatchObject({ code: "invalid_cvc", param: "card.cvc" })
      expect((yield* refusal({ number: "378282246310005", cvc: "123" })).answer).toMatchObject({ code: "invalid_cvc" })
      // A real card (a valid number outside the PSPs' test BINs) is refused in test mode, taken in live mode.
      expect((yield* refusal({ number: "4539578763621486" })).answer).toMatchObject({ code: "invalid_number", param: "card.number" })
      const real = yield* vault.tokenize({ organizationId: "org_raw", livemode: true }, { type: "card", card: { ...visa.card, number: "4539578763621486" } })
      expect(real.card.last4).toBe("1486")
    }).pipe(Effect.provide(vaultOn(VaultStoreMemory))))

  it.scoped("forgets a security code after its time in memory", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 10, 29))
      const vault = yield* CardVault
      const created = yield* vault.tokenize(test, visa)
      yield* TestClock.adjust("5 minutes")
      expect((yield* vault.reveal(test, created.id, use)).cvc).toBeNull()
    }).pipe(Effect.provide(vaultOn(VaultStoreMemory))))

  it("combines two custodian shares into the key, and refuses keys that are not 32 bytes", () => {
    const key = new Uint8Array(32).fill(9)
    const [first, second] = splitKey(key)
    const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")
    expect(parseKeyring(`2:${b64(first)}^${b64(second)}`).get(2)).toEqual(key)
    expect(() => parseKeyring("1:AAAA")).toThrow(/32 bytes/)
    expect(() => parseKeyring("")).toThrow(/no vault key/)
  })
})

for (const database of testDatabases()) {
  describe(`the access log on ${database.name}`, () => {
    it.scoped("is append-only: an update, a delete or a truncate is refused by the database", () =>
      Effect.gen(function*() {
        const store = yield* VaultStore
        const record = {
          cardId: "pm_X",
          organizationId: "org_log",
          livemode: false,
          purpose: "authorization",
          paymentId: "pay_1",
          connection: "c",
          atMillis: 0
        }
        yield* store.insert({
          id: "pm_X",
          organizationId: "org_log",
          livemode: false,
          keyVersion: 1,
          wrappedKey: new Uint8Array(4),
          ciphertext: new Uint8Array(4),
          brand: "visa",
          last4: "4242",
          expMonth: 12,
          expYear: 2030,
          country: null,
          funding: "credit",
          fingerprint: "f",
          networkTransactionId: null,
          checkoutSessionId: null,
          createdAtMillis: 0
        })
        // Read with its access in one statement; a card of the other mode is not found and leaves no record.
        expect(Option.isSome(yield* store.findForAccess(record))).toBe(true)
        expect(Option.isNone(yield* store.findForAccess({ ...record, livemode: true }))).toBe(true)
        const sql = yield* SqlClient.SqlClient
        expect((yield* Effect.either(sql`delete from vault.card_accesses where organization_id = 'org_log'`))._tag).toBe("Left")
        expect((yield* Effect.either(sql`update vault.card_accesses set purpose = 'x' where organization_id = 'org_log'`))._tag).toBe("Left")
        expect((yield* Effect.either(sql`truncate vault.card_accesses`))._tag).toBe("Left")
        expect(yield* store.accesses("org_log", "pm_X")).toEqual([record])
      }).pipe(Effect.provide(VaultStoreSql.pipe(Layer.provideMerge(database.layer)))))
  })
}

describe("fingerprints", () => {
  it.scoped("have a key of their own: the same card keeps its fingerprint after the KEK it was vaulted under is retired", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 10, 29))
      const store = yield* Layer.build(VaultStoreMemory)
      const vaultWith = (versions: ReadonlyArray<number>) =>
        Layer.build(
          CardVaultLive({ rawCardData: () => true, fingerprintKey: new Uint8Array(32).fill(3) }).pipe(
            Layer.provide(Layer.mergeAll(
              Layer.succeed(KeyProvider, localKeyProvider(new Map(versions.map((version) => [version, new Uint8Array(32).fill(version)])), "test")),
              IdGenerator.layer,
              Layer.succeedContext(store)
            ))
          )
        ).pipe(Effect.map((context) => context.unsafeMap.get(CardVault.key) as CardVault["Type"]))
      const before = yield* (yield* vaultWith([1])).tokenize(test, visa)
      const after = yield* (yield* vaultWith([2])).tokenize(test, visa)
      expect(after.card.fingerprint).toBe(before.card.fingerprint)
      // Another fingerprint key, another fingerprint: it is the key, not the KEK, that makes them.
      const other = yield* Layer.build(
        CardVaultLive({ rawCardData: () => true, fingerprintKey: new Uint8Array(32).fill(4) }).pipe(
          Layer.provide(Layer.mergeAll(keys, IdGenerator.layer, VaultStoreMemory))
        )
      ).pipe(Effect.map((context) => context.unsafeMap.get(CardVault.key) as CardVault["Type"]))
      expect((yield* other.tokenize(test, visa)).card.fingerprint).not.toBe(before.card.fingerprint)
    }))
})
