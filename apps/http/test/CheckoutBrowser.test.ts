import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { type Frame, freePort as freePortNumber, launchBrowser, newPage, type Page, screenshot, testDatabases } from "@orchestrator/testing"
import { Effect, Layer } from "effect"
import { spawn } from "node:child_process"
import { sessionBody } from "./support/CheckoutFixtures.js"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

const SHOP = "https://shop.test"
const SUITE = "checkout"
const CARD_NUMBERS = ["4242424242424242", "4000000000000002", "4000002760003184", "4242 4242 4242 4242", "4000 0000 0000 0002"]

/** The merchant's shop, which does not exist: the browser is answered a page for each of its addresses. */
const fakeShop = (page: Page) =>
  Effect.promise(() =>
    page.route(
      `${SHOP}/**`,
      (route) =>
        route.fulfill({ contentType: "text/html", body: `<!doctype html><title>Shop</title><h1>Shop page ${new URL(route.request().url()).pathname}</h1>` })
    )
  )

/** Every request the browser makes, to prove no card number ever leaves the card form's frame. */
const recordRequests = (page: Page) => {
  const seen: Array<string> = []
  page.on("request", (request) => seen.push(`${request.method()} ${request.url()} ${request.postData() ?? ""}`))
  return seen
}

const cardFrame = (page: Page) =>
  Effect.promise(async () => {
    await page.locator("iframe.orchestrator-card-frame").waitFor()
    const handle = await page.locator("iframe.orchestrator-card-frame").elementHandle()
    const frame = await handle!.contentFrame()
    await frame!.locator("#card-number").waitFor()
    return frame!
  })

const enterCard = (frame: Frame, number: string) =>
  Effect.promise(async () => {
    await frame.getByLabel("Card number").fill(number)
    await frame.getByLabel(/Expiry/).fill("12 / 34")
    await frame.getByLabel(/Security code/).fill("123")
  })

const click = (page: Page, name: RegExp) => Effect.promise(() => page.getByRole("button", { name }).click())
const waitForUrl = (page: Page, prefix: string) => Effect.promise(() => page.waitForURL((url) => url.toString().startsWith(prefix)))
const textOf = (page: Page, selector: string) => Effect.promise(() => page.locator(selector).innerText())

const freePort = Effect.promise(freePortNumber)

/** The README's example shop (`examples/checkout-shop.mjs`) as its own process, on another origin than the service. */
const startShop = (apiUrl: string, apiKey: string) =>
  Effect.gen(function*() {
    const port = yield* freePort
    const shop = yield* Effect.acquireRelease(
      Effect.sync(() =>
        spawn(process.execPath, [new URL("../../../examples/checkout-shop.mjs", import.meta.url).pathname], {
          env: { ...process.env, PORT: String(port), ORCHESTRATOR_URL: apiUrl, ORCHESTRATOR_API_KEY: apiKey },
          stdio: ["ignore", "pipe", "inherit"]
        })
      ),
      (child) => Effect.sync(() => child.kill())
    )
    // It says so once it listens.
    yield* Effect.async<void>((resume) => {
      shop.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("Example shop on")) resume(Effect.void)
      })
    })
    return `http://127.0.0.1:${port}`
  })

for (const database of testDatabases().filter((each) => each.name === "pglite")) {
  // The database layer again beside the server: the same instance (layers are shared by reference),
  // so a test can move a session's clock by hand.
  layer(Layer.merge(serverLayer(database.layer), database.layer), { excludeTestServices: true, timeout: "180 seconds" })(
    `the checkout drop-in and hosted page in Chromium on ${database.name}`,
    (it) => {
      const setup = (body: object = {}, prepare?: (account: { baseUrl: string; secret: string }) => Effect.Effect<void>) =>
        Effect.gen(function*() {
          const account = yield* merchant()
          if (prepare !== undefined) yield* prepare(account)
          const created = yield* raw(`${account.baseUrl}/v1/checkout/sessions`, {
            method: "POST",
            headers: json(account.secret, newKey()),
            body: JSON.stringify({
              ...sessionBody,
              success_url: `${SHOP}/thanks?session={CHECKOUT_SESSION_ID}`,
              cancel_url: `${SHOP}/cart`,
              ...body
            })
          })
          expect(created.status).toBe(201)
          const session = created.json
          const server = (path: string) => raw(`${account.baseUrl}${path}`, { headers: json(account.secret) })
          const hostedUrl = `${account.baseUrl}/checkout/${session.id}?client_secret=${encodeURIComponent(session.client_secret)}`
          return { ...account, session, server, hostedUrl }
        })

      const open = (url: string, locale?: string, options: { readonly fakeTimers?: boolean } = {}) =>
        Effect.gen(function*() {
          const browser = yield* launchBrowser
          const page = yield* newPage(browser, locale === undefined ? {} : { locale })
          // The page's timers then move only when the test moves them (as TestClock does for the service).
          if (options.fakeTimers === true) yield* Effect.promise(() => page.clock.install())
          yield* fakeShop(page)
          const requests = recordRequests(page)
          const response = yield* Effect.promise(() => page.goto(url))
          return { page, requests, response: response! }
        })

      const noCardNumberLeft = (requests: ReadonlyArray<string>) => {
        for (const number of CARD_NUMBERS) for (const request of requests) expect(request).not.toContain(number)
      }

      it.scoped("pays with 4242 on the hosted page and lands on the success URL", () =>
        Effect.gen(function*() {
          const { hostedUrl, server, session } = yield* setup()
          const { page, requests, response } = yield* open(hostedUrl)
          const policy = response.headers()["content-security-policy"]
          expect(policy).toContain("script-src 'self'")
          expect(policy).not.toContain("unsafe-inline")
          expect(response.headers()["referrer-policy"]).toBe("no-referrer")
          const frame = yield* cardFrame(page)
          // The client secret is taken off the address bar once the drop-in holds it.
          expect(page.url()).not.toContain("client_secret")
          expect(yield* textOf(page, ".orchestrator-summary")).toContain("€25.00")
          yield* screenshot(page, SUITE, "pay-4242-1-form")
          yield* enterCard(frame, "4242 4242 4242 4242")
          yield* screenshot(page, SUITE, "pay-4242-2-filled")
          yield* click(page, /Pay/)
          yield* waitForUrl(page, `${SHOP}/thanks?session=${session.id}`)
          yield* screenshot(page, SUITE, "pay-4242-3-success")
          const full = (yield* server(`/v1/checkout/sessions/${session.id}?expand=payment`)).json
          expect([full.status, full.payment.status, full.payment.payment_method.last4]).toEqual(["complete", "succeeded", "4242"])
          noCardNumberLeft(requests)
        }))

      it.scoped("a card the first provider declines: the drop-in reroutes to the other sandbox, where the customer pays", () =>
        Effect.gen(function*() {
          const { hostedUrl, organization, server, session } = yield* setup()
          const { page, requests } = yield* open(hostedUrl)
          // The page is the merchant's: its name heads it and titles the tab (the organization's name,
          // its display name until one is set).
          expect(yield* textOf(page, ".orchestrator-title")).toBe(`Pay ${organization.name}`)
          // The tab's title is set with the heading, in the same step: waited for, as a user would see it.
          yield* Effect.promise(() => page.waitForFunction((title) => document.title === title, `Pay ${organization.name}`, { timeout: 10_000 }))
          yield* enterCard(yield* cardFrame(page), "4000 0000 0000 0002")
          yield* click(page, /Pay/)
          const message = page.locator(".orchestrator-message.orchestrator-warning")
          yield* Effect.promise(() => message.waitFor())
          const said = yield* textOf(page, ".orchestrator-message")
          // What happened and what to do, in words: no provider, and no placeholder where a name would go.
          expect(said).toBe(
            "Your payment did not go through. Your card was declined. Nothing was charged. Please try again: enter your card details once more, or use another card."
          )
          expect(yield* Effect.promise(() => page.locator(".orchestrator-provider").count())).toBe(0)
          const shown = yield* Effect.promise(() => page.evaluate(() => document.body.innerText))
          expect(shown).not.toMatch(/sandbox_[ab]|payment provider/)
          expect(yield* textOf(page, ".orchestrator-cancel")).toBe(`Cancel and return to ${organization.name}`)
          // The message takes the focus, so a screen reader announces it.
          expect(yield* Effect.promise(() => page.evaluate(() => document.activeElement?.className ?? ""))).toContain("orchestrator-message")
          yield* screenshot(page, SUITE, "reroute-1-declined-offered-another")
          const frame = yield* cardFrame(page)
          yield* enterCard(frame, "4242 4242 4242 4242")
          yield* click(page, /Pay/)
          yield* waitForUrl(page, `${SHOP}/thanks`)
          yield* screenshot(page, SUITE, "reroute-2-success")
          const full = (yield* server(`/v1/checkout/sessions/${session.id}`)).json
          expect(full.status).toBe("complete")
          const payments = yield* Effect.forEach(full.payment_ids as Array<string>, (id) => server(`/v1/payments/${id}`))
          expect(payments.map(({ json }) => [json.provider, json.status])).toEqual([
            ["sandbox_a", "failed"],
            ["sandbox_b", "succeeded"]
          ])
          noCardNumberLeft(requests)
        }))

      it.scoped("a 3D Secure card goes through the challenge and back to the hosted page, then to success", () =>
        Effect.gen(function*() {
          const { baseUrl, hostedUrl, server, session } = yield* setup()
          const { page } = yield* open(hostedUrl)
          yield* enterCard(yield* cardFrame(page), "4000 0027 6000 3184")
          yield* click(page, /Pay/)
          yield* waitForUrl(page, `${baseUrl}/sandbox/3ds/`)
          yield* screenshot(page, SUITE, "3ds-1-challenge")
          yield* click(page, /Complete/)
          yield* waitForUrl(page, `${SHOP}/thanks?session=${session.id}`)
          yield* screenshot(page, SUITE, "3ds-2-success")
          expect((yield* server(`/v1/checkout/sessions/${session.id}`)).json.status).toBe("complete")
        }))

      it.scoped("a payment the provider confirms late: the drop-in says so after ten seconds, keeps looking, then finishes", () =>
        Effect.gen(function*() {
          const { hostedUrl, session } = yield* setup()
          const { page } = yield* open(hostedUrl, undefined, { fakeTimers: true })
          // Until `confirmed`, the session's endpoints tell the browser its payment is still processing,
          // as they do while a provider's answer is late (a webhook or reconciliation settles it later).
          // Only answers after Pay are rewritten: the page's first look at the session may come after
          // this route is in place, and must still find it open (or no form is shown).
          let paying = false
          let confirmed = false
          let looks = 0
          yield* Effect.promise(() =>
            page.route(`**/v1/checkout/sessions/${session.id}**`, async (route) => {
              const response = await route.fetch()
              const body = await response.json()
              if (!paying) return route.fulfill({ response, json: body })
              if (route.request().method() === "GET") looks++
              await route.fulfill({ response, json: confirmed ? body : { ...body, status: "processing" } })
            })
          )
          yield* enterCard(yield* cardFrame(page), "4242 4242 4242 4242")
          paying = true
          yield* click(page, /Pay/)
          const said = () => page.locator(".orchestrator-message").innerText()
          yield* Effect.promise(() => expect.poll(said).toContain("Waiting for your bank"))
          // Moves the page's clock a quarter second at a time until the drop-in has looked `count`
          // times; answers how much page time that took (at least the drop-in's interval).
          const lookNumber = (count: number) =>
            Effect.promise(async () => {
              let moved = 0
              while (looks < count) {
                if (moved > 60_000) throw new Error(`look ${count} never came`)
                await page.clock.runFor(250)
                moved += 250
              }
              return moved
            })
          for (let look = 1; look <= 9; look++) expect(yield* lookNumber(look)).toBeGreaterThanOrEqual(1_000)
          expect(yield* Effect.promise(said)).toContain("Waiting for your bank")
          // The tenth look still finds it processing: the customer is told why it takes long.
          yield* lookNumber(10)
          yield* Effect.promise(() => expect.poll(said).toContain("still being confirmed"))
          yield* screenshot(page, SUITE, "late-1-still-confirming")
          // It keeps looking, every five seconds now, and finishes once the payment is confirmed.
          expect(yield* lookNumber(11)).toBeGreaterThanOrEqual(5_000)
          expect(yield* lookNumber(12)).toBeGreaterThanOrEqual(5_000)
          confirmed = true
          yield* lookNumber(13)
          yield* waitForUrl(page, `${SHOP}/thanks?session=${session.id}`)
        }))

      it.scoped("cancel goes to the cancel URL; the session is cancelled; the form speaks the session's locale", () =>
        Effect.gen(function*() {
          const { hostedUrl, organization, server, session } = yield* setup({ locale: "de" })
          const { page } = yield* open(hostedUrl)
          const frame = yield* cardFrame(page)
          expect(yield* Effect.promise(() => frame.getByLabel("Kartennummer").count())).toBe(1)
          expect(yield* textOf(page, ".orchestrator-pay")).toContain("bezahlen")
          expect(yield* textOf(page, ".orchestrator-title")).toBe(`${organization.name} bezahlen`)
          expect(yield* textOf(page, ".orchestrator-cancel")).toBe(`Abbrechen und zurück zu ${organization.name}`)
          yield* screenshot(page, SUITE, "cancel-1-form-de")
          yield* click(page, /Abbrechen/)
          yield* waitForUrl(page, `${SHOP}/cart`)
          yield* screenshot(page, SUITE, "cancel-2-cancel-url")
          expect((yield* server(`/v1/checkout/sessions/${session.id}`)).json.status).toBe("cancelled")
        }))

      it.scoped("an expired session shows a clear message and no form", () =>
        Effect.gen(function*() {
          const { hostedUrl, organization, session } = yield* setup({ locale: "fr" })
          const sql = yield* SqlClient.SqlClient
          yield* sql`update checkout_sessions set expires_at = now() - interval '1 second' where id = ${session.id}`
          const { page } = yield* open(hostedUrl)
          const message = page.locator(".orchestrator-message.orchestrator-error")
          yield* Effect.promise(() => message.waitFor())
          expect(yield* Effect.promise(() => message.innerText())).toBe(
            `Cette session de paiement a expiré, et rien n'a été débité. Veuillez revenir à ${organization.name} et recommencer.`
          )
          expect(yield* Effect.promise(() => page.locator("iframe").count())).toBe(0)
          const back = page.getByRole("link", { name: `Revenir à ${organization.name}` })
          expect(yield* Effect.promise(() => back.getAttribute("href"))).toBe(`${SHOP}/cart`)
          yield* screenshot(page, SUITE, "expired-fr")
        }))

      it.scoped("pays with the keyboard only: Tab through the card fields to the Pay button, Enter", () =>
        Effect.gen(function*() {
          const { hostedUrl, session } = yield* setup({ locale: "fr" })
          const { page } = yield* open(hostedUrl)
          const frame = yield* cardFrame(page)
          const focused = () =>
            Effect.promise(async () => {
              const inFrame = await frame.evaluate(() => document.hasFocus() ? document.activeElement?.id ?? "" : "")
              return inFrame !== "" && inFrame !== undefined ? inFrame : await page.evaluate(() => document.activeElement?.className ?? "")
            })
          const press = (key: string) => Effect.promise(() => page.keyboard.press(key))
          const type = (text: string) => Effect.promise(() => page.keyboard.type(text))
          yield* press("Tab")
          expect(yield* focused()).toBe("card-number")
          yield* type("4242424242424242")
          yield* press("Tab")
          expect(yield* focused()).toBe("card-expiry")
          yield* type("1234")
          yield* press("Tab")
          expect(yield* focused()).toBe("card-cvc")
          yield* type("123")
          yield* screenshot(page, SUITE, "keyboard-1-filled")
          yield* press("Tab")
          expect(yield* focused()).toContain("orchestrator-pay")
          yield* press("Enter")
          yield* waitForUrl(page, `${SHOP}/thanks?session=${session.id}`)
          yield* screenshot(page, SUITE, "keyboard-2-success")
        }))

      it.scoped("with display names set, the page is the shop's, names providers by theirs only, and asks to try again without naming one", () =>
        Effect.gen(function*() {
          const named = ({ baseUrl, secret }: { baseUrl: string; secret: string }) =>
            Effect.gen(function*() {
              // The merchant's own name for shoppers, set through the organization API.
              const shop = yield* raw(`${baseUrl}/v1/organization`, {
                method: "PATCH",
                headers: json(secret, newKey()),
                body: JSON.stringify({ display_name: "Acme Shop" })
              })
              expect([shop.status, shop.json.display_name]).toEqual([200, "Acme Shop"])
              const connections = (yield* raw(`${baseUrl}/v1/provider-connections`, { headers: json(secret) })).json.data as Array<any>
              for (const [name, displayName] of [["sandbox_a", "Acme Pay"], ["sandbox_b", "Backup Pay"]] as const) {
                const id = connections.find((connection) => connection.name === name).id
                const updated = yield* raw(`${baseUrl}/v1/provider-connections/${id}`, {
                  method: "PATCH",
                  headers: json(secret, newKey()),
                  body: JSON.stringify({ display_name: displayName })
                })
                expect(updated.status).toBe(200)
                expect(updated.json).toMatchObject({ name, display_name: displayName })
                const read = yield* raw(`${baseUrl}/v1/provider-connections/${id}`, { headers: json(secret) })
                expect(read.json.display_name).toBe(displayName)
              }
            })
          const { hostedUrl, organization } = yield* setup({}, named)
          const { page } = yield* open(hostedUrl)
          // The page is headed with the merchant's name once the session is read (a moment after load on a busy machine).
          yield* Effect.promise(() => page.locator(".orchestrator-provider").waitFor())
          expect(yield* textOf(page, ".orchestrator-title")).toBe("Pay Acme Shop")
          expect(yield* Effect.promise(() => page.title())).toBe("Pay Acme Shop")
          expect(yield* textOf(page, ".orchestrator-provider")).toBe("Processed by Acme Pay")
          yield* screenshot(page, SUITE, "named-1-form")
          yield* enterCard(yield* cardFrame(page), "4000 0000 0000 0002")
          yield* click(page, /Pay/)
          yield* Effect.promise(() => page.locator(".orchestrator-message.orchestrator-warning").waitFor())
          const said = yield* textOf(page, ".orchestrator-message")
          // A reroute is "try again" to the shopper: no provider is named in it, by any name.
          expect(said).toContain("Nothing was charged. Please try again")
          expect(said).not.toMatch(/Acme Pay|Backup Pay|provider/)
          expect(yield* textOf(page, ".orchestrator-provider")).toBe("Processed by Backup Pay")
          yield* screenshot(page, SUITE, "named-2-try-again")
          const shown = yield* Effect.promise(() => page.evaluate(() => document.body.innerText + document.title))
          expect(shown).not.toMatch(/sandbox_[ab]/)
          expect(shown).not.toContain(organization.name)
        }))

      it.scoped("the README's example shop: the drop-in on the merchant's own page, declined, rerouted, paid", () =>
        Effect.gen(function*() {
          const account = yield* merchant()
          const shop = yield* startShop(account.baseUrl, account.secret)
          const { page, requests } = yield* open(`${shop}/`)
          yield* click(page, /Buy now/)
          yield* waitForUrl(page, `${shop}/pay?session=cs_`)
          yield* enterCard(yield* cardFrame(page), "4000 0000 0000 0002")
          yield* screenshot(page, SUITE, "shop-1-merchant-page")
          yield* click(page, /Pay/)
          yield* Effect.promise(() => page.locator(".orchestrator-message.orchestrator-warning").waitFor())
          yield* screenshot(page, SUITE, "shop-2-rerouted")
          yield* enterCard(yield* cardFrame(page), "4242 4242 4242 4242")
          yield* click(page, /Pay/)
          yield* waitForUrl(page, `${shop}/thanks?session=cs_`)
          const outcome = yield* textOf(page, "#outcome")
          expect(outcome).toMatch(/is complete: payment pay_\w+ succeeded on sandbox_b/)
          yield* screenshot(page, SUITE, "shop-3-thanks")
          noCardNumberLeft(requests)
          // The secret key stayed on the shop's server.
          for (const request of requests) expect(request).not.toContain(account.secret)
        }))
    }
  )
}
