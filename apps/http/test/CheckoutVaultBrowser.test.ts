import { expect, layer } from "@effect/vitest"
import { fakeAdyen, fakeStripe, type Frame, launchBrowser, newPage, type Page, screenshot, testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"
import { merchantCalls, stripeThenAdyen, whatTheShopSees } from "./support/VaultPages.js"

const SUITE = "checkout-vault"
/** Stripe's test card declined for insufficient funds (a refusal another PSP may not share); Adyen's fake authorizes it. */
const NUMBER_FORMS = ["4000000000009995", "4000 0000 0000 9995", "4000-0000-0000-9995", "400000000000"]

/**
 * The merchant's own pages, on another origin than the service: `/pay` mounts the drop-in with the
 * session's client secret and keeps every message its window gets; any other address is a plain page.
 */
const shopServer = (api: string) =>
  Effect.map(
    Effect.acquireRelease(
      Effect.promise(() =>
        new Promise<http.Server>((resolve) => {
          const server = http.createServer((request, response) => {
            const url = new URL(request.url ?? "/", "http://shop")
            response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
            response.end(
              url.pathname === "/pay"
                ? `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head><body><h1>Shop checkout</h1>
<div id="checkout"></div><script src="${api}/v1/checkout/dropin.js"></script>
<script>
  window.received = []
  window.addEventListener("message", function (event) { window.received.push(JSON.stringify({ origin: event.origin, data: event.data })) })
  Orchestrator.mount({ container: "#checkout", clientSecret: ${JSON.stringify(url.searchParams.get("secret"))}, locale: "en" })
</script></body></html>`
                : `<!doctype html><title>Shop</title><h1>Shop page ${url.pathname}</h1>`
            )
          })
          server.listen(0, "127.0.0.1", () => resolve(server))
        })
      ),
      (server) => Effect.promise(() => new Promise<void>((done) => server.close(() => done())))
    ),
    (server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  )

const vaultFrame = (page: Page) =>
  Effect.promise(async () => {
    await page.locator("iframe.orchestrator-card-frame").waitFor()
    const frame = (await (await page.locator("iframe.orchestrator-card-frame").elementHandle())!.contentFrame())!
    await frame.locator("#card-number").waitFor()
    return frame
  })

const typeCard = (frame: Frame) =>
  Effect.promise(async () => {
    await frame.getByLabel("Card number").fill("4000 0000 0000 9995")
    await frame.getByLabel(/Expiry/).fill("12 / 34")
    await frame.getByLabel(/Security code/).fill("123")
  })

for (const database of testDatabases().filter((each) => each.name === "pglite")) {
  layer(serverLayer(database.layer, { vaultOrigin: (port) => `http://localhost:${port}` }), { excludeTestServices: true, timeout: "180 seconds" })(
    `the drop-in with the vault's card form in Chromium on ${database.name}`,
    (it) => {
      it.scoped("the shopper types the card once: Stripe declines it, the drop-in reroutes and Adyen is charged, and the shop never sees the number", () =>
        Effect.gen(function*() {
          const account = yield* merchant()
          const stripe = yield* fakeStripe
          const adyen = yield* fakeAdyen
          const call = merchantCalls(account)
          yield* stripeThenAdyen(call, stripe, adyen)
          const shop = yield* shopServer(account.baseUrl)
          const created = yield* call("/v1/checkout/sessions", {
            amount: 2500,
            currency: "EUR",
            success_url: `${shop}/thanks?session={CHECKOUT_SESSION_ID}`,
            cancel_url: `${shop}/cart`,
            return_url: `${shop}/pay`
          })
          const session = created.json
          const vault = account.baseUrl.replace("127.0.0.1", "localhost")
          expect(session.ui.card_form_url).toBe(`${vault}/vault/card-form`)

          const browser = yield* launchBrowser
          const page = yield* newPage(browser)
          const requests: Array<{ url: string; body: string }> = []
          page.on("request", (request) => requests.push({ url: request.url(), body: request.postData() ?? "" }))
          yield* Effect.promise(() => page.goto(`${shop}/pay?secret=${encodeURIComponent(session.client_secret)}`))
          const frame = yield* vaultFrame(page)
          // The vault's form, on the vault's origin, not the sandbox's; the client secret is not left in its address.
          expect(new URL(frame.url()).origin).toBe(vault)
          expect(frame.url()).not.toContain(session.client_secret)
          yield* typeCard(frame)
          yield* screenshot(page, SUITE, "1-typed")
          yield* Effect.promise(() => page.getByRole("button", { name: /Pay/ }).click())
          yield* Effect.promise(() => page.waitForURL((url) => url.toString().startsWith(`${shop}/thanks?session=${session.id}`)))
          yield* screenshot(page, SUITE, "2-thanks")

          const full = (yield* call(`/v1/checkout/sessions/${session.id}?expand=payment`)).json
          expect([full.status, full.payment.provider, full.payment.status, full.payment_ids.length]).toEqual(["complete", "adyen_eu", "succeeded", 2])
          const first = (yield* call(`/v1/payments/${full.payment_ids[0]}`)).json
          expect([first.provider, first.status, first.failure.code]).toEqual(["stripe_eu", "failed", "insufficient_funds"])
          // Both payments name the one card the shopper typed once.
          expect(first.payment_method.token).toBe(full.payment.payment_method.token)
          expect(full.payment.payment_method.token).toMatch(/^pm_[0-9A-Z]{30}$/)
          expect(stripe.exchanges.filter((exchange) => exchange.url === "/v1/payment_methods")).toHaveLength(1)
          expect(adyen.exchanges.filter((exchange) => exchange.url === "/v71/payments")).toHaveLength(1)

          // The number left the browser once, to the vault's origin; the shop's origin was sent and served none of it.
          const carrying = requests.filter((request) => NUMBER_FORMS.some((form) => request.body.includes(form) || request.url.includes(form)))
          expect(carrying.map((request) => request.url)).toEqual([`${vault}/v1/card_form/payment_methods`])
          expect(requests.filter((request) => request.url.startsWith(shop)).every((request) => request.body === "")).toBe(true)
        }))

      it.scoped("a decline rerouted to the sandbox asks for the card again in its form; the shop's window held the masked card only", () =>
        Effect.gen(function*() {
          const account = yield* merchant()
          const stripe = yield* fakeStripe
          yield* raw(`${account.baseUrl}/v1/provider-connections`, {
            method: "POST",
            headers: json(account.secret, newKey()),
            body: JSON.stringify({ name: "stripe_eu", type: "stripe", credentials: { secret_key: "sk_test_dropin2" }, base_url: stripe.url })
          })
          const shop = yield* shopServer(account.baseUrl)
          const session = (yield* raw(`${account.baseUrl}/v1/checkout/sessions`, {
            method: "POST",
            headers: json(account.secret, newKey()),
            body: JSON.stringify({ amount: 2500, currency: "EUR", provider: "stripe_eu", success_url: `${shop}/thanks`, cancel_url: `${shop}/cart` })
          })).json
          const browser = yield* launchBrowser
          const page = yield* newPage(browser)
          yield* Effect.promise(() => page.goto(`${shop}/pay?secret=${encodeURIComponent(session.client_secret)}`))
          yield* typeCard(yield* vaultFrame(page))
          // Stripe declines the card; the next provider is the merchant's sandbox, which takes its own
          // form's tokens only: the shopper is asked to type the card there.
          yield* Effect.promise(() => page.getByRole("button", { name: /Pay/ }).click())
          yield* Effect.promise(() => page.locator(".orchestrator-message.orchestrator-warning").waitFor())
          yield* screenshot(page, SUITE, "3-rerouted-to-sandbox")
          const sandboxForm = yield* Effect.promise(() => page.locator("iframe.orchestrator-card-frame").getAttribute("src"))
          expect(sandboxForm).toContain("/sandbox/card-form")
          expect(yield* Effect.promise(() => page.locator(".orchestrator-message").innerText())).toContain("The card has insufficient funds.")
          const seen = yield* whatTheShopSees(page)
          for (const form of NUMBER_FORMS) expect(seen).not.toContain(form)
          // What the frame told the page: the token and the masked card.
          expect(seen).toContain("\\\"last4\\\":\\\"9995\\\"")
        }))
    }
  )
}
