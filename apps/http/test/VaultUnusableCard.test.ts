import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { fakeAdyen, fakeStripe, testDatabases } from "@orchestrator/testing"
import { Effect, Option } from "effect"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

const logs: Array<string> = []
const year = new Date().getUTCFullYear() + 2

for (const database of testDatabases()) {
  layer(serverLayer(database.layer, { logs, rawCardData: () => true }), { excludeTestServices: true, timeout: "180 seconds" })(
    `a vaulted card that does not open is a final refusal on ${database.name}`,
    (it) => {
      /** A merchant routing to Stripe first, Adyen next (both fakes), with one vaulted card. */
      const setup = Effect.gen(function*() {
        const account = yield* merchant()
        const stripe = yield* fakeStripe
        const adyen = yield* fakeAdyen
        const call = (path: string, body?: unknown, method = body === undefined ? "GET" : "POST") =>
          raw(`${account.baseUrl}${path}`, {
            method,
            headers: json(account.secret, path === "/v1/payments" ? newKey() : undefined),
            ...(body === undefined ? {} : { body: JSON.stringify(body) })
          })
        const stripeConnection = yield* call("/v1/provider-connections", {
          name: "stripe_eu",
          type: "stripe",
          credentials: { secret_key: "sk_test_unusable" },
          base_url: stripe.url
        })
        yield* call("/v1/provider-connections", {
          name: "adyen_eu",
          type: "adyen",
          credentials: { api_key: "AQE_unusable", merchant_account: adyen.merchantAccount },
          base_url: adyen.url
        })
        yield* call("/v1/routing-rules", { priority: 1, conditions: {}, action: { provider: "stripe_eu" } })
        yield* call("/v1/routing-rules", { priority: 2, conditions: {}, action: { provider: "adyen_eu" } })
        yield* call("/v1/organization", { default_provider: "adyen_eu", payments_routing: "rules" }, "PATCH")
        const card = yield* call("/v1/payment_methods", {
          type: "card",
          card: { number: "4242424242424242", exp_month: 7, exp_year: year, cvc: "123" }
        })
        expect(card.status).toBe(201)
        const sql = Option.getOrThrow(yield* Effect.serviceOption(SqlClient.SqlClient))
        return { call, stripe, adyen, sql, token: card.json.id as string, stripeId: stripeConnection.json.id as string }
      })

      const refusedWithoutAnyPsp = (damage: (sql: SqlClient.SqlClient, token: string) => Effect.Effect<unknown, unknown>) =>
        Effect.gen(function*() {
          const { adyen, call, sql, stripe, stripeId, token } = yield* setup
          yield* Effect.orDie(damage(sql, token))
          const paid = yield* call("/v1/payments", { amount: 2500, currency: "EUR", payment_method: { type: "card", token } })
          expect([paid.status, paid.json.error.type, paid.json.error.code]).toEqual([402, "payment_error", "payment_method_unusable"])
          expect(paid.json.error.payment.status).toBe("failed")
          expect(paid.json.error.payment.failure.code).toBe("payment_method_unusable")
          // One attempt, no retry on Stripe, no failover to Adyen: neither PSP heard of the payment.
          expect(paid.json.error.payment.attempts.map((attempt: { provider: string }) => attempt.provider)).toEqual(["stripe_eu"])
          expect(stripe.exchanges).toEqual([])
          expect(adyen.exchanges.filter((exchange) => exchange.url === "/v71/payments")).toEqual([])
          // Stripe's health is untouched (it was never called), and the merchant reads no key or row detail.
          expect((yield* call(`/v1/provider-connections/${stripeId}`)).json.consecutive_failures).toBe(0)
          expect(paid.text).not.toMatch(/key version|altered|ciphertext/i)
          // The operator hears of it, by ids.
          expect(logs.some((line) => line.includes(token) && line.includes("could not open"))).toBe(true)
        })

      it.scoped("its key version is missing: 402 payment_method_unusable, no PSP called, no failover", () =>
        refusedWithoutAnyPsp((sql, token) => sql`update vault.cards set key_version = 99 where id = ${token}`))

      it.scoped("its row was altered: the same final refusal", () =>
        // One base64 character of the sealed data changed: a few bits of the ciphertext.
        refusedWithoutAnyPsp((sql, token) =>
          sql`update vault.cards set ciphertext = overlay(ciphertext placing (case when substr(ciphertext, 20, 1) = 'A' then 'B' else 'A' end) from 20 for 1)
            where id = ${token}`
        ))

      it.scoped("destroyed by another process after this one kept its facts: its payment's creation finds no card, the same refusal", () =>
        Effect.gen(function*() {
          const { adyen, call, sql, stripe, token } = yield* setup
          // What another process's DELETE /v1/payment_methods does to the row; this process still routes by the facts it kept.
          yield* Effect.orDie(sql`delete from vault.cards where id = ${token}`)
          const paid = yield* call("/v1/payments", { amount: 2500, currency: "EUR", payment_method: { type: "card", token } })
          expect([paid.status, paid.json.error.code, paid.json.error.payment.status]).toEqual([402, "payment_method_unusable", "failed"])
          expect(paid.json.error.payment.attempts.map((attempt: { provider: string }) => attempt.provider)).toEqual(["stripe_eu"])
          expect(stripe.exchanges).toEqual([])
          expect(adyen.exchanges.filter((exchange) => exchange.url === "/v71/payments")).toEqual([])
          // Nothing was opened, so nothing is in the access log.
          const accesses = yield* sql<{ n: number }>`select count(*)::integer as n from vault.card_accesses where card_id = ${token}`
          expect(accesses[0]!.n).toBe(0)
        }))
    }
  )
}
