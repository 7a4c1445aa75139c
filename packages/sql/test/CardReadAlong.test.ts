import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { CardReadAlong, type IdempotencyRecord, type Payment, PaymentMethod, PaymentsRepository, type Tenant } from "@orchestrator/core"
import { storageFixtures, testDatabases } from "@orchestrator/testing"
import { DateTime, Effect, Layer } from "effect"
import { StorageSql } from "../src/StorageSql.js"

const { at, attempt, id, newTenant } = storageFixtures

/** A card row as the vault writes one (its sealed columns opaque here: nothing is decrypted). */
const vaultedCard = (tenant: Tenant) =>
  Effect.gen(function*() {
    const card = `pm_${id("pay").slice(4)}`
    yield* (yield* SqlClient.SqlClient)`insert into vault.cards (id, organization_id, livemode, key_version, wrapped_key, ciphertext,
      brand, last4, exp_month, exp_year, country, funding, fingerprint, created_at)
      values (${card}, ${tenant.organizationId}, ${tenant.livemode}, 3, 'd3JhcHBlZA==', 'c2VhbGVk', 'visa', '4242', 12, 2034, 'US',
      'credit', 'fp', now())`
    return card
  })

const accessesOf = (card: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<{ payment_id: string; connection: string; purpose: string }>`select payment_id, connection, purpose from vault.card_accesses
      where card_id = ${card} order by seq`
  )

/** A payment of the card, its first attempt on `stripe_eu`, and the read its creation makes along. */
const paymentOf = (tenant: Tenant, card: string) => {
  const payment = storageFixtures.payment(tenant, {
    provider: "stripe_eu",
    payment_method: new PaymentMethod({ type: "card", token: card, brand: "visa", last4: "4242", country: "US" }),
    attempts: [attempt({ provider: "stripe_eu" })]
  })
  const read = new CardReadAlong({ cardId: card, purpose: "authorization", paymentId: payment.id, connection: "stripe_eu", atMillis: at(1).epochMillis })
  return { payment, read }
}

const keyOf = (payment: Payment, lockToken: string): IdempotencyRecord => ({
  key: "order-9",
  fingerprint: "f",
  resourceId: payment.id,
  answer: null,
  lockedUntil: DateTime.add(at(0), { minutes: 2 }),
  lockToken,
  createdAt: at(0)
})

/**
 * A vaulted payment's creation reads its card through the vault's function and records the access
 * in the same statement; a creation that writes nothing (its key taken) reads and records nothing.
 */
for (const database of testDatabases()) {
  layer(StorageSql.pipe(Layer.provideMerge(database.layer)), { timeout: "60 seconds" })(
    `a card read along with a payment's creation on ${database.name}`,
    (it) => {
      it.effect("under a new key: the card's sealed columns read and one access recorded; under a taken key: neither", () =>
        Effect.gen(function*() {
          const payments = yield* PaymentsRepository
          const tenant = yield* newTenant
          const card = yield* vaultedCard(tenant)

          const first = paymentOf(tenant, card)
          expect(yield* payments.insertWithEvents(tenant, first.payment, [], keyOf(first.payment, "first"), first.read)).toBe(true)
          expect(first.read.take(first.payment.id, "stripe_eu")).toEqual({
            sealed: { key_version: 3, wrapped_key: "d3JhcHBlZA==", ciphertext: "c2VhbGVk", brand: "visa", network_transaction_id: null }
          })
          // Once: a later attempt reads (and records) for itself.
          expect(first.read.take(first.payment.id, "stripe_eu")).toBeUndefined()
          expect(yield* accessesOf(card)).toEqual([{ payment_id: first.payment.id, connection: "stripe_eu", purpose: "authorization" }])

          const second = paymentOf(tenant, card)
          expect(yield* payments.insertWithEvents(tenant, second.payment, [], keyOf(second.payment, "second"), second.read)).toBe(false)
          expect(second.read.take(second.payment.id, "stripe_eu")).toBeUndefined()
          expect(yield* accessesOf(card)).toHaveLength(1)
        }))

      it.effect("without a key; a card of another organization is not read (null) and its log untouched", () =>
        Effect.gen(function*() {
          const payments = yield* PaymentsRepository
          const [owner, other] = [yield* newTenant, yield* newTenant]
          const card = yield* vaultedCard(owner)

          const mine = paymentOf(owner, card)
          expect(yield* payments.insertWithEvents(owner, mine.payment, [], undefined, mine.read)).toBe(true)
          expect(mine.read.take(mine.payment.id, "stripe_eu")?.sealed).toMatchObject({ key_version: 3, brand: "visa" })

          const theirs = paymentOf(other, card)
          expect(yield* payments.insertWithEvents(other, theirs.payment, [], undefined, theirs.read)).toBe(true)
          expect(theirs.read.take(theirs.payment.id, "stripe_eu")).toEqual({ sealed: null })
          expect((yield* accessesOf(card)).map((access) => access.payment_id)).toEqual([mine.payment.id])
        }))
    }
  )
}
