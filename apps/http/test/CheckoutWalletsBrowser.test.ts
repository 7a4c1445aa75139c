import { expect, layer } from "@effect/vitest"
import { fakePayPal, launchBrowser, newPage, type Page, screenshot, testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { connectPayPal, sessionBody } from "./support/CheckoutFixtures.js"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

const SHOP = "https://shop.test"
const SUITE = "checkout-wallets"

/** The merchant's shop, which does not exist: the browser is answered a page for each of its addresses. */
const fakeShop = (page: Page) =>
  Effect.promise(() => page.route(`${SHOP}/**`, (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Shop</title>" })))

for (const database of testDatabases().filter((each) => each.name === "pglite")) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "180 seconds" })(
    `the checkout drop-in's wallet buttons in Chromium on ${database.name}`,
    (it) => {
      const setup = (allowed_methods: ReadonlyArray<string>, locale?: string) =>
        Effect.gen(function*() {
          const paypal = yield* fakePayPal
          const account = yield* merchant()
          expect(yield* connectPayPal(account, paypal)).toBe(201)
          const created = yield* raw(`${account.baseUrl}/v1/checkout/sessions`, {
            method: "POST",
            headers: json(account.secret, newKey()),
            body: JSON.stringify({
              ...sessionBody,
              success_url: `${SHOP}/thanks?session={CHECKOUT_SESSION_ID}`,
              cancel_url: `${SHOP}/cart`,
              allowed_methods,
              ...(locale === undefined ? {} : { locale })
            })
          })
          expect(created.status).toBe(201)
          const session = created.json
          const browser = yield* launchBrowser
          const page = yield* newPage(browser, {})
          yield* fakeShop(page)
          yield* Effect.promise(() => page.goto(`${account.baseUrl}/checkout/${session.id}?client_secret=${encodeURIComponent(session.client_secret)}`))
          const server = (path: string) => raw(`${account.baseUrl}${path}`, { headers: json(account.secret) })
          return { page, session, server, paypal }
        })

      it.scoped("Pay with PayPal: to the payer's approval at PayPal, back to the hosted page, then to the success URL", () =>
        Effect.gen(function*() {
          const { page, server, session } = yield* setup(["card", "paypal"])
          const button = page.getByRole("button", { name: "Pay with PayPal" })
          yield* Effect.promise(() => button.waitFor())
          // The card form is still there beside the wallet.
          yield* Effect.promise(() => page.locator("iframe.orchestrator-card-frame").waitFor())
          yield* screenshot(page, SUITE, "paypal-1-buttons")
          yield* Effect.promise(() => button.click())
          yield* Effect.promise(() => page.waitForURL((url) => url.toString().startsWith(`${SHOP}/thanks?session=${session.id}`)))
          const paid = yield* server(`/v1/checkout/sessions/${session.id}?expand=payment`)
          expect([paid.json.status, paid.json.payment.provider, paid.json.payment.payment_method.type, paid.json.payment.status])
            .toEqual(["complete", "paypal_eu", "paypal", "succeeded"])
        }))

      it.scoped("a wallet-only session shows its button in the session's language and no card form", () =>
        Effect.gen(function*() {
          const { page, server, session } = yield* setup(["paypal"], "fr")
          const button = page.getByRole("button", { name: "Payer avec PayPal" })
          yield* Effect.promise(() => button.waitFor())
          expect(yield* Effect.promise(() => page.locator("iframe.orchestrator-card-frame").count())).toBe(0)
          expect(yield* Effect.promise(() => page.locator(".orchestrator-pay").isVisible())).toBe(false)
          expect((yield* server(`/v1/checkout/sessions/${session.id}`)).json.status).toBe("open")
        }))
    }
  )
}
