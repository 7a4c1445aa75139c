import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Organizations } from "@orchestrator/core"
import { fakeAdyen, fakeStripe, OpenApiContract, testDatabases } from "@orchestrator/testing"
import { Effect, Option } from "effect"
import { checkoutSetup } from "./support/CheckoutFixtures.js"
import { json } from "./support/Fixtures.js"
import { raw, serverLayer } from "./support/TestServer.js"
import { merchantCalls, stripeThenAdyen } from "./support/VaultPages.js"

const year = new Date().getUTCFullYear() + 2
/** Stripe's test card declined for insufficient funds; Adyen's fake authorizes it. */
const LOW_FUNDS = "4000000000009995"
const adyenDocument = OpenApiContract.adyenCheckout()
const stripeDocument = OpenApiContract.stripe()

for (const database of testDatabases()) {
  layer(serverLayer(database.layer, { rawCardData: () => true }), { excludeTestServices: true, timeout: "180 seconds" })(
    `checkout sessions pay with the vault's card form on ${database.name}`,
    (it) => {
      /** A merchant routing cards to Stripe first, Adyen next (both fakes), and one checkout session. */
      const setup = Effect.gen(function*() {
        const stripe = yield* fakeStripe
        const adyen = yield* fakeAdyen
        const checkout = yield* checkoutSetup()
        const call = merchantCalls(checkout)
        yield* stripeThenAdyen(call, stripe, adyen)
        // The session the shopper pays: made once the routes are there (the fixture's own is on the sandbox).
        const made = yield* call("/v1/checkout/sessions", {
          amount: 2500,
          currency: "EUR",
          success_url: "https://shop.test/thanks",
          cancel_url: "https://shop.test/cart"
        })
        expect(made.status).toBe(201)
        const session = made.json
        const asShopper = (path: string, body: unknown, clientSecret: string = session.client_secret) =>
          raw(`${checkout.baseUrl}${path}`, {
            method: "POST",
            headers: { "content-type": "application/json", "service-client-secret": clientSecret },
            body: JSON.stringify(body)
          })
        /** The card as the vault's card form sends it, under a session's client secret. */
        const typed = (number: string, clientSecret: string = session.client_secret) =>
          Effect.map(
            asShopper("/v1/card_form/payment_methods", { type: "card", card: { number, exp_month: 7, exp_year: year, cvc: "123" } }, clientSecret),
            (answer) => {
              expect(answer.status).toBe(201)
              return answer.json.id as string
            }
          )
        const confirm = (token: string) => asShopper(`/v1/checkout/sessions/${session.id}/confirm`, { payment_method: { type: "card", token } })
        const reroute = () => asShopper(`/v1/checkout/sessions/${session.id}/reroute`, {})
        return { ...checkout, stripe, adyen, call, session, typed, confirm, reroute }
      })

      it.scoped("the card typed once pays: Stripe refuses it, the reroute pays Adyen with the same pm_ (no CVC the second time)", () =>
        Effect.gen(function*() {
          const { adyen, baseUrl, call, confirm, reroute, session, stripe, typed } = yield* setup
          expect(session.ui).toMatchObject({ provider: "stripe_eu", type: "stripe", card_form_url: `${new URL(baseUrl).origin}/vault/card-form` })
          const token = yield* typed(LOW_FUNDS)

          const refused = yield* confirm(token)
          expect([refused.status, refused.json.status, refused.json.payment.provider, refused.json.payment.failure.code])
            .toEqual([200, "payment_failed", "stripe_eu", "insufficient_funds"])
          const sentToStripe = stripe.exchanges.filter((exchange) => exchange.url === "/v1/payment_methods")
          expect(sentToStripe).toHaveLength(1)
          expect(sentToStripe[0]!.body).toContain("card%5Bcvc%5D=123")
          expect(stripeDocument.checkRequest(sentToStripe[0]!)).toEqual([])

          const rerouted = yield* reroute()
          expect([rerouted.status, rerouted.json.status, rerouted.json.ui.provider, rerouted.json.ui.card_form_url])
            .toEqual([200, "open", "adyen_eu", session.ui.card_form_url])
          const paid = yield* confirm(token)
          expect([paid.status, paid.json.status, paid.json.payment.provider, paid.json.payment.status]).toEqual([200, "complete", "adyen_eu", "succeeded"])
          const sentToAdyen = adyen.exchanges.filter((exchange) => exchange.url === "/v71/payments")
          expect(sentToAdyen).toHaveLength(1)
          // The security code went with the first authorization only: the vault keeps none after it.
          expect(JSON.parse(sentToAdyen[0]!.body).paymentMethod).toEqual({
            type: "scheme",
            number: LOW_FUNDS,
            expiryMonth: "07",
            expiryYear: String(year)
          })
          expect(adyenDocument.checkRequest(sentToAdyen[0]!)).toEqual([])

          const full = yield* call(`/v1/checkout/sessions/${session.id}?expand=payment`)
          expect(full.json.payment_ids).toHaveLength(2)
          expect(full.json.payment.payment_method).toMatchObject({ type: "card", token })
          // The card's access log: one decryption per PSP, each for its own payment.
          const accesses = yield* call(`/v1/payment_methods/${token}/accesses`)
          expect(accesses.json.data.map((access: { connection: string }) => access.connection).sort()).toEqual(["adyen_eu", "stripe_eu"])
        }))

      it.scoped("a pm_ the session did not make is refused with 404 and the session stays open: the merchant's card, another session's, the publishable key's", () =>
        Effect.gen(function*() {
          const { adyen, baseUrl, call, confirm, organization, session, stripe, typed } = yield* setup
          const merchants = yield* call("/v1/payment_methods", {
            type: "card",
            card: { number: "4242424242424242", exp_month: 7, exp_year: year, cvc: "123" }
          })
          const other = yield* call("/v1/checkout/sessions", {
            amount: 100,
            currency: "EUR",
            success_url: "https://shop.test/thanks",
            cancel_url: "https://shop.test/cart"
          })
          const othersCard = yield* typed("4242424242424242", other.json.client_secret)
          const publishable = (yield* (yield* Organizations).createKey(organization.id, false, "publishable")).secret
          const viaKey = yield* raw(`${baseUrl}/v1/card_form/payment_methods`, {
            method: "POST",
            headers: json(publishable),
            body: JSON.stringify({ type: "card", card: { number: "4242424242424242", exp_month: 7, exp_year: year, cvc: "123" } })
          })
          expect([merchants.status, viaKey.status]).toEqual([201, 201])
          for (const token of [merchants.json.id, othersCard, viaKey.json.id, "pm_01M8M0ZWY3D2CP6J7AA5VK1TGRCG0J"]) {
            const refused = yield* confirm(token)
            expect([token, refused.status, refused.json.error?.code]).toEqual([token, 404, "resource_missing"])
            expect(refused.json.error.message).toContain(token)
          }
          const after = yield* call(`/v1/checkout/sessions/${session.id}`)
          expect([after.json.status, after.json.payment_ids]).toEqual(["open", []])
          expect(stripe.exchanges).toEqual([])
          expect(adyen.exchanges.filter((exchange) => exchange.url === "/v71/payments")).toEqual([])
          // The session's own card still pays it.
          const paid = yield* confirm(yield* typed("4242424242424242"))
          expect([paid.status, paid.json.status]).toEqual([200, "complete"])
        }))

      it.scoped("a card the vault cannot open fails the session with payment_method_unusable, no PSP called", () =>
        Effect.gen(function*() {
          const { adyen, confirm, stripe, typed } = yield* setup
          const token = yield* typed("4242424242424242")
          const sql = Option.getOrThrow(yield* Effect.serviceOption(SqlClient.SqlClient))
          yield* Effect.orDie(sql`update vault.cards set key_version = 99 where id = ${token}`)
          const refused = yield* confirm(token)
          expect([refused.status, refused.json.status, refused.json.payment.failure.code]).toEqual([200, "payment_failed", "payment_method_unusable"])
          expect(stripe.exchanges).toEqual([])
          expect(adyen.exchanges.filter((exchange) => exchange.url === "/v71/payments")).toEqual([])
        }))

      it.scoped("a session on the sandbox keeps the sandbox's own card form", () =>
        Effect.gen(function*() {
          const { session } = yield* checkoutSetup()
          expect(session.ui).toMatchObject({ type: "sandbox", card_form_url: null })
        }))
    }
  )
}
