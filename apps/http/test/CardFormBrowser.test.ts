import { expect, layer } from "@effect/vitest"
import { Organizations } from "@orchestrator/core"
import { type Frame, launchBrowser, newPage, type Page, screenshot, testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"
import { whatTheShopSees } from "./support/VaultPages.js"

const SUITE = "card-form"
/** Every way the test number could be written. */
const NUMBER_FORMS = ["4242424242424242", "4242 4242 4242 4242", "4242-4242-4242-4242", "424242424242"]

/** The merchant's checkout page: it includes the vault's script and mounts the form, and keeps whatever reaches its window. */
const shopPage = (vault: string, publishableKey: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Shop checkout</title></head><body>
<h1>Shop checkout</h1><div id="card"></div><button id="pay">Pay</button><p id="result"></p>
<script src="${vault}/vault/v1/vault.js"></script>
<script>
  window.received = []
  window.addEventListener("message", function (event) { window.received.push(JSON.stringify({ origin: event.origin, data: event.data })) })
  var form = OrchestratorVault.mount({ container: "#card", publishableKey: ${JSON.stringify(publishableKey)} })
  document.getElementById("pay").addEventListener("click", function () {
    form.tokenize().then(function (method) {
      window.method = method
      document.getElementById("result").textContent = method.id + " " + method.card.brand + " ····" + method.card.last4
    }, function (error) {
      window.refusal = error.code || error.message
      document.getElementById("result").textContent = "refused " + (error.code || error.message)
    })
  })
</script></body></html>`

/** The shop: its own server on this machine (another origin than the service's), answering its page to every request. */
const shopServer = (html: string) =>
  Effect.map(
    Effect.acquireRelease(
      Effect.promise(() =>
        new Promise<http.Server>((resolve) => {
          const server = http.createServer((_, response) => {
            response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
            response.end(html)
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
    const handle = await page.locator("iframe.orchestrator-vault-frame").elementHandle()
    const frame = (await handle!.contentFrame())!
    await frame.locator("#card-number").waitFor()
    return frame
  })

const typeCard = (frame: Frame, number: string) =>
  Effect.promise(async () => {
    await frame.getByLabel("Card number").fill(number)
    await frame.getByLabel(/Expiry/).fill("12 / 34")
    await frame.getByLabel(/Security code/).fill("123")
    await frame.getByLabel("Name on card").fill("Ada Lovelace")
  })

for (const database of testDatabases().filter((each) => each.name === "pglite")) {
  layer(serverLayer(database.layer, { vaultOrigin: (port) => `http://localhost:${port}` }), { excludeTestServices: true, timeout: "180 seconds" })(
    `the vault's card form in Chromium on ${database.name}`,
    (it) => {
      const setup = Effect.gen(function*() {
        const account = yield* merchant()
        const publishable = (yield* (yield* Organizations).createKey(account.organization.id, false, "publishable")).secret
        const vault = account.baseUrl.replace("127.0.0.1", "localhost")
        const browser = yield* launchBrowser
        const page = yield* newPage(browser)
        // Every request any frame makes, with where it went.
        const requests: Array<{ url: string; body: string }> = []
        page.on("request", (request) => requests.push({ url: request.url(), body: request.postData() ?? "" }))
        const shop = yield* shopServer(shopPage(vault, publishable))
        yield* Effect.promise(() => page.goto(`${shop}/checkout`))
        return { ...account, publishable, vault, page, requests, shop }
      })

      it.scoped("a shop on another origin gets a pm_ token and the masked card, never the number, and the token pays", () =>
        Effect.gen(function*() {
          const { baseUrl, page, publishable, requests, secret, shop, vault } = yield* setup
          const frame = yield* vaultFrame(page)
          expect(new URL(frame.url()).origin).toBe(vault)
          // The frame's address no longer holds the publishable key (it came in the fragment).
          expect(frame.url()).not.toContain(publishable)
          yield* typeCard(frame, "4242 4242 4242 4242")
          yield* screenshot(page, SUITE, "1-typed")
          // The shop's scripts cannot look into the frame.
          const peek = yield* Effect.promise(() =>
            page.evaluate(() => {
              const iframe = document.querySelector("iframe")!
              let direct: string
              try {
                direct = String((iframe.contentWindow as any).document.body.innerHTML)
              } catch (error) {
                direct = `blocked: ${(error as Error).name}`
              }
              return { contentDocument: iframe.contentDocument === null ? "null" : "readable", direct }
            })
          )
          expect(peek).toEqual({ contentDocument: "null", direct: "blocked: SecurityError" })

          yield* Effect.promise(() => page.getByRole("button", { name: "Pay" }).click())
          yield* Effect.promise(() => page.waitForFunction(() => (window as any).method !== undefined))
          yield* screenshot(page, SUITE, "2-tokenized")
          const seen = yield* whatTheShopSees(page)
          const method = JSON.parse(seen).method
          expect(method).toMatchObject({ livemode: false, card: { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2034 } })
          expect(method.id).toMatch(/^pm_[0-9A-Z]{30}$/)
          expect(Object.keys(method).sort()).toEqual(["card", "id", "livemode"])
          for (const form of [...NUMBER_FORMS, "Lovelace"]) expect(seen).not.toContain(form)
          // The number left the browser once, to the vault's origin; nothing the shop's origin was sent or served holds it.
          const carrying = requests.filter((request) => NUMBER_FORMS.some((form) => request.body.includes(form) || request.url.includes(form)))
          expect(carrying.map((request) => request.url)).toEqual([`${vault}/v1/card_form/payment_methods`])
          expect(requests.filter((request) => request.url.startsWith(shop)).every((request) => request.body === "")).toBe(true)

          const paid = yield* raw(`${baseUrl}/v1/payments`, {
            method: "POST",
            headers: json(secret, newKey()),
            body: JSON.stringify({ amount: 4200, currency: "EUR", payment_method: { type: "card", token: method.id } })
          })
          expect([paid.status, paid.json.status, paid.json.amount]).toEqual([201, "succeeded", 4200])
        }))

      it.scoped("a wrong number is refused in the frame, and the shop is told the code only", () =>
        Effect.gen(function*() {
          const { page } = yield* setup
          const frame = yield* vaultFrame(page)
          yield* typeCard(frame, "4242 4242 4242 4241")
          yield* Effect.promise(() => page.getByRole("button", { name: "Pay" }).click())
          yield* Effect.promise(() => page.waitForFunction(() => (window as any).refusal !== undefined))
          yield* screenshot(page, SUITE, "3-refused")
          expect(yield* Effect.promise(() => page.evaluate(() => (window as any).refusal))).toBe("invalid_number")
          expect(yield* Effect.promise(() => frame.locator("#card-number-error").innerText())).toBe("Enter a valid card number.")
          expect(yield* whatTheShopSees(page)).not.toContain("4241")
        }))
    }
  )
}
