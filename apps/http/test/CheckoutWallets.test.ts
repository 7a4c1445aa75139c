import { expect, layer } from "@effect/vitest"
import { fakePayPal, testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { checkoutSetup, connectPayPal } from "./support/CheckoutFixtures.js"
import { json, newKey } from "./support/Fixtures.js"
import { raw, serverLayer } from "./support/TestServer.js"

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `checkout sessions paid with a wallet, through a PayPal fake, on ${database.name}`,
    (it) => {
      /** A merchant with its sandboxes (cards) and a PayPal connection, and a session allowing cards and PayPal. */
      const walletSetup = (allowed: ReadonlyArray<string>) =>
        Effect.gen(function*() {
          const paypal = yield* fakePayPal
          const setup = yield* checkoutSetup()
          expect(yield* connectPayPal(setup, paypal)).toBe(201)
          const created = yield* raw(`${setup.baseUrl}/v1/checkout/sessions`, {
            method: "POST",
            headers: json(setup.secret, newKey()),
            body: JSON.stringify({
              amount: 1050,
              currency: "EUR",
              success_url: "https://shop.test/thanks",
              cancel_url: "https://shop.test/cart",
              allowed_methods: allowed
            })
          })
          expect(created.status).toBe(201)
          const session = created.json
          const pay = (payment_method: object) =>
            setup.browser(`/v1/checkout/sessions/${session.id}/confirm`, {
              method: "POST",
              clientSecret: session.client_secret,
              body: { payment_method }
            })
          const read = () => setup.browser(`/v1/checkout/sessions/${session.id}`, { clientSecret: session.client_secret })
          return { ...setup, session, pay, read }
        })

      it.scoped("a session allowing cards and PayPal: the card form stays on the sandbox, PayPal goes to the payer's approval and back, the session completes", () =>
        Effect.gen(function*() {
          const { baseUrl, pay, read, server, session } = yield* walletSetup(["card", "paypal"])
          // Cards as before; PayPal routed for its own method, shown under the connection's display name.
          expect(session.ui).toMatchObject({ provider: "sandbox_a", type: "sandbox", methods: ["card", "paypal"] })
          expect(session.ui.wallets).toEqual([{ type: "paypal", provider: "paypal_eu", display_name: "PayPal" }])
          expect((yield* read()).json.ui.wallets).toEqual(session.ui.wallets)

          // A method the session does not allow: the documented 400, and the session stays open.
          const notAllowed = yield* pay({ type: "ideal" })
          expect([notAllowed.status, notAllowed.json.error.code, notAllowed.json.error.param])
            .toEqual([400, "payment_method_not_allowed", "payment_method.type"])
          expect((yield* read()).json.status).toBe("open")

          const confirmed = yield* pay({ type: "paypal" })
          expect(confirmed.status).toBe(200)
          expect([confirmed.json.status, confirmed.json.payment.provider, confirmed.json.payment.next_action.type])
            .toEqual(["processing", "paypal_eu", "redirect"])

          // The payer approves at PayPal, comes back through our return URL, and lands on the hosted page.
          const atPayPal = yield* raw(`${confirmed.json.payment.next_action.url}?funding=ok`)
          const back = atPayPal.headers.get("location")!
          expect(back.startsWith(`${baseUrl}/v1/payments/`)).toBe(true)
          const returned = yield* raw(back)
          expect(returned.status).toBe(303)
          expect(returned.headers.get("location")).toContain(`/checkout/${session.id}`)

          const done = yield* read()
          expect([done.json.status, done.json.payment.status, done.json.payment.next_action]).toEqual(["complete", "succeeded", null])
          const full = yield* server(`/v1/checkout/sessions/${session.id}?expand=payment`)
          expect([full.json.payment.provider, full.json.payment.payment_method.type, full.json.payment.amount_captured])
            .toEqual(["paypal_eu", "paypal", 1050])
          // One payment, one session: a second confirmation is refused.
          expect((yield* pay({ type: "paypal" })).status).toBe(409)
        }))

      it.scoped("cards still pay on the card form's provider; a session allowing no wallet refuses one", () =>
        Effect.gen(function*() {
          const { pay, read } = yield* walletSetup(["card", "paypal"])
          const card = yield* pay({ type: "card", token: "tok_visa" })
          expect([card.status, card.json.status, card.json.payment.provider]).toEqual([200, "complete", "sandbox_a"])
          expect((yield* read()).json.payment.provider).toBe("sandbox_a")

          const cardsOnly = yield* walletSetup(["card"])
          expect(cardsOnly.session.ui.wallets).toBeUndefined()
          const refused = yield* cardsOnly.pay({ type: "paypal" })
          expect([refused.status, refused.json.error.code]).toEqual([400, "payment_method_not_allowed"])

          const walletOnly = yield* walletSetup(["paypal"])
          const noCard = yield* walletOnly.pay({ type: "card", token: "tok_visa" })
          expect([noCard.status, noCard.json.error.code]).toEqual([400, "payment_method_not_allowed"])
        }))

      it.scoped("PayPal declines at approval: the reroute keeps the card form's provider and offers no PayPal any more", () =>
        Effect.gen(function*() {
          const { pay, browser, session } = yield* walletSetup(["card", "paypal"])
          const confirmed = yield* pay({ type: "paypal" })
          yield* raw(`${confirmed.json.payment.next_action.url}?funding=declined`).pipe(
            Effect.flatMap((atPayPal) => raw(atPayPal.headers.get("location")!))
          )
          const read = (yield* browser(`/v1/checkout/sessions/${session.id}`, { clientSecret: session.client_secret })).json
          expect([read.status, read.payment.status]).toEqual(["payment_failed", "failed"])
          const rerouted = yield* browser(`/v1/checkout/sessions/${session.id}/reroute`, {
            method: "POST",
            clientSecret: session.client_secret,
            body: { exclude_provider: "paypal_eu" }
          })
          expect([rerouted.status, rerouted.json.status, rerouted.json.ui.provider, rerouted.json.ui.wallets])
            .toEqual([200, "open", "sandbox_a", undefined])
          const card = yield* pay({ type: "card", token: "tok_visa" })
          expect([card.json.status, card.json.payment.provider]).toEqual(["complete", "sandbox_a"])
        }))

      it.effect("allowed_methods takes the core's methods and nothing else", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* checkoutSetup()
          const create = (allowed_methods: ReadonlyArray<string>) =>
            raw(`${baseUrl}/v1/checkout/sessions`, {
              method: "POST",
              headers: json(secret, newKey()),
              body: JSON.stringify({ amount: 100, currency: "EUR", success_url: "https://s.test/", cancel_url: "https://s.test/", allowed_methods })
            })
          const unknown = yield* create(["card", "bitcoin"])
          expect(unknown.status).toBe(400)
          // iDEAL is a known method, but no connection of this merchant takes it: nothing to route it to.
          const unroutable = yield* create(["card", "ideal"])
          expect([unroutable.status, unroutable.json.error.code]).toEqual([422, "no_provider_available"])
        }))
    }
  )
}
