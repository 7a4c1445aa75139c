import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import {
  CardReadAlong,
  type Currency,
  type IdempotencyRecord,
  makeId,
  Organization,
  OrganizationsRepository,
  Payment,
  PaymentAttempt,
  PaymentMethod,
  PaymentsRepository,
  type Tenant
} from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing"
import { DateTime, Effect, Layer } from "effect"
import { StorageSql } from "../src/StorageSql.js"

let sequence = 0
const next = (prefix: "org" | "pay" | "att") => makeId(prefix, Date.now() + sequence++)
const at = DateTime.unsafeMake(Date.UTC(2026, 10, 30, 9))

const newTenant = Effect.gen(function*() {
  const id = next("org")
  yield* (yield* OrganizationsRepository).insert(
    new Organization({
      id,
      name: `Org ${id}`,
      default_provider_test: "sandbox_a",
      default_provider_live: null,
      payments_routing_test: "default",
      payments_routing_live: "default",
      created_at: at
    })
  )
  return { organizationId: id, livemode: false } satisfies Tenant
})

/** A card row as the vault writes one (its sealed columns opaque here: nothing is decrypted). */
const vaultedCard = (tenant: Tenant, id: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql`insert into vault.cards (id, organization_id, livemode, key_version, wrapped_key, ciphertext, brand, last4, exp_month,
      exp_year, country, funding, fingerprint, created_at)
      values (${id}, ${tenant.organizationId}, ${tenant.livemode}, 3, 'd3JhcHBlZA==', 'c2VhbGVk', 'visa', '4242', 12, 2034, 'US',
      'credit', 'fp', now())`
  )

const accessesOf = (id: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<{ payment_id: string; connection: string; purpose: string }>`select payment_id, connection, purpose from vault.card_accesses
      where card_id = ${id} order by seq`
  )

const paymentOf = (tenant: Tenant, token: string) =>
  new Payment({
    object: "payment",
    id: next("pay"),
    status: "processing",
    amount: 1050,
    amount_captured: 0,
    amount_refunded: 0,
    amount_disputed: 0,
    disputed: false,
    currency: "EUR" as Currency,
    provider: "stripe_eu",
    provider_payment_id: null,
    routing: { strategy: "default", rule_id: null },
    payment_method: new PaymentMethod({ type: "card", token, brand: "visa", last4: "4242", country: "US" }),
    customer_id: null,
    description: null,
    metadata: {},
    capture: true,
    off_session: false,
    return_url: null,
    next_action: null,
    failure: null,
    attempts: [
      new PaymentAttempt({
        object: "payment_attempt",
        id: next("att"),
        provider: "stripe_eu",
        status: "pending",
        provider_payment_id: null,
        error_code: null,
        latency_ms: null,
        created_at: at
      })
    ],
    created_at: at,
    updated_at: at,
    livemode: tenant.livemode
  })

const keyOf = (payment: Payment, lockToken: string): IdempotencyRecord => ({
  key: "order-9",
  fingerprint: "f",
  resourceId: payment.id,
  answer: null,
  lockedUntil: DateTime.add(at, { minutes: 2 }),
  lockToken,
  createdAt: at
})

const readFor = (payment: Payment, cardId: string) =>
  new CardReadAlong({ cardId, purpose: "authorization", paymentId: payment.id, connection: "stripe_eu", atMillis: at.epochMillis })

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
          const card = `pm_${next("pay").slice(4)}`
          yield* vaultedCard(tenant, card)

          const first = paymentOf(tenant, card)
          const read = readFor(first, card)
          expect(yield* payments.insertWithEvents(tenant, first, [], keyOf(first, "first"), read)).toBe(true)
          expect(read.take(first.id, "stripe_eu")).toEqual({
            sealed: { key_version: 3, wrapped_key: "d3JhcHBlZA==", ciphertext: "c2VhbGVk", brand: "visa", network_transaction_id: null }
          })
          // Once: a later attempt reads (and records) for itself.
          expect(read.take(first.id, "stripe_eu")).toBeUndefined()
          expect(yield* accessesOf(card)).toEqual([{ payment_id: first.id, connection: "stripe_eu", purpose: "authorization" }])

          const second = paymentOf(tenant, card)
          const lost = readFor(second, card)
          expect(yield* payments.insertWithEvents(tenant, second, [], keyOf(second, "second"), lost)).toBe(false)
          expect(lost.take(second.id, "stripe_eu")).toBeUndefined()
          expect(yield* accessesOf(card)).toHaveLength(1)
        }))

      it.effect("without a key; a card of another organization is not read (null) and its log untouched", () =>
        Effect.gen(function*() {
          const payments = yield* PaymentsRepository
          const [owner, other] = [yield* newTenant, yield* newTenant]
          const card = `pm_${next("pay").slice(4)}`
          yield* vaultedCard(owner, card)

          const mine = paymentOf(owner, card)
          const read = readFor(mine, card)
          expect(yield* payments.insertWithEvents(owner, mine, [], undefined, read)).toBe(true)
          expect(read.take(mine.id, "stripe_eu")?.sealed).toMatchObject({ key_version: 3, brand: "visa" })

          const theirs = paymentOf(other, card)
          const refused = readFor(theirs, card)
          expect(yield* payments.insertWithEvents(other, theirs, [], undefined, refused)).toBe(true)
          expect(refused.take(theirs.id, "stripe_eu")).toEqual({ sealed: null })
          expect((yield* accessesOf(card)).map((access) => access.payment_id)).toEqual([mine.id])
        }))
    }
  )
}
