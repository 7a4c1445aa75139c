import { expect, layer } from "@effect/vitest"
import { launchBrowser, newPage, type Page, screenshot, testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

const SUITE = "docs"
const QUICK_START_BODY = "{\"amount\": 2500, \"currency\": \"EUR\", \"payment_method\": {\"type\": \"card\", \"token\": \"tok_visa\"}}"

/** Every request the page makes (its workers' too), and every complaint of the browser's policy. */
const watch = (page: Page) => {
  const requests: Array<string> = []
  const violations: Array<string> = []
  page.context().on("request", (request) => requests.push(request.url()))
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text())
  })
  return { requests, violations }
}

const promise = <A>(run: () => Promise<A>) => Effect.promise(run)

/** Types into one of Scalar's code editors (CodeMirror), replacing what it holds. */
const replaceEditorText = (page: Page, editor: ReturnType<Page["locator"]>, text: string) =>
  promise(async () => {
    await editor.click()
    await page.keyboard.press("Control+A")
    await page.keyboard.press("Delete")
    // insertText: no key events, so the editor's bracket completion adds nothing.
    await page.keyboard.insertText(text)
  })

for (const database of testDatabases().filter((each) => each.name === "pglite")) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "180 seconds" })(
    `/docs in Chromium on ${database.name}`,
    (it) => {
      it.scoped("loads only from its own origin, under a strict policy, and sends the recorded payment with a key given to Authentication, after the README's", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          // The reader made the README's first payment before opening the docs.
          const readme = yield* raw(`${baseUrl}/v1/payments`, {
            method: "POST",
            headers: json(secret, "order-1001"),
            body: QUICK_START_BODY
          })
          expect(readme.status).toBe(201)
          const origin = new URL(baseUrl).origin
          const browser = yield* launchBrowser
          const page = yield* newPage(browser)
          const { requests, violations } = watch(page)
          const response = (yield* promise(() => page.goto(`${baseUrl}/docs`)))!
          const policy = response.headers()["content-security-policy"] ?? ""
          expect(policy).toContain("default-src 'none'")
          expect(policy).toMatch(/script-src 'self'( 'wasm-unsafe-eval')?;/)
          expect(policy).toContain("connect-src 'self'")

          // The landing text says how to authenticate; the cloud buttons are gone.
          yield* promise(() => page.getByText("Authorization: Bearer sk_test_…").first().waitFor())
          const token = page.getByPlaceholder("Token").first()
          yield* promise(() => token.waitFor())
          // (Scalar shows its toolbar, "Share" and "Generate SDKs" among it, on localhost unless told not to.)
          for (const cloud of [/^Share$/, /Generate SDKs/, /Developer Tools/, /Open API Client/]) {
            expect(yield* promise(() => page.locator("a, button").filter({ hasText: cloud }).count()), String(cloud)).toBe(0)
          }
          yield* screenshot(page, SUITE, "1-landing")

          yield* promise(() => token.fill(secret))
          yield* promise(() => page.getByRole("button", { name: /Test Request\s*\(post \/v1\/payments\)/ }).click())
          const client = page.getByRole("dialog")
          yield* promise(() => client.waitFor())
          // The key given on the page is the one the client sends.
          expect(yield* promise(() => client.getByPlaceholder("Token").inputValue())).toBe(secret)
          // The recorded example's key is none the README or a guide uses.
          const idempotencyKey = client.locator(".cm-content").filter({ hasText: /^idempotency-key$/ })
            .locator("xpath=following::div[contains(@class,'cm-content')][1]")
          expect(yield* promise(() => idempotencyKey.innerText())).toMatch(/^example-/)
          // Sent as the page shows it: a payment, not a 422 for a key the reader used before.
          yield* promise(() => client.getByRole("button", { name: /^Send/ }).first().click())
          yield* promise(() => client.getByText("201 Created").waitFor())
          yield* promise(() => client.getByText("\"status\": \"succeeded\"").first().waitFor())
          yield* screenshot(page, SUITE, "2-payment-sent")
          // Sent again with another body, under the same key on the page: a fresh key goes out, another payment.
          // (The request's body is the first editor holding an amount; the answer's is below it.)
          yield* replaceEditorText(page, client.locator(".cm-content").filter({ hasText: /"amount"/ }).first(), QUICK_START_BODY.replace("2500", "2600"))
          yield* promise(() => client.getByRole("button", { name: /^Send/ }).first().click())
          // The answer shows the new payment: the amount is in the answer's editor as well as the request's.
          const withNewAmount = client.locator(".cm-content").filter({ hasText: /"amount": 2600/ })
          yield* promise(() => expect.poll(() => withNewAmount.count(), { timeout: 15_000 }).toBe(2))
          expect(yield* promise(() => client.getByText("idempotency_key_reused").count())).toBe(0)

          // The payments are real: the service has both, and the README's.
          const list = yield* raw(`${baseUrl}/v1/payments?limit=3`, { headers: json(secret) })
          expect(list.json.data.map((payment: { amount: number; status: string }) => [payment.amount, payment.status])).toEqual([
            [2600, "succeeded"],
            [2500, "succeeded"],
            [2500, "succeeded"]
          ])
          expect(new Set(list.json.data.map((payment: { id: string }) => payment.id)).size).toBe(3)

          // Nothing of it was kept: no storage holds the key, and a reload forgets it.
          const stored = yield* promise(() =>
            page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie)
          )
          expect(stored).not.toContain(secret)
          expect(yield* promise(() => page.evaluate(() => indexedDB.databases()))).toEqual([])
          yield* promise(() => page.reload())
          yield* promise(() => page.getByPlaceholder("Token").first().waitFor())
          expect(yield* promise(() => page.getByPlaceholder("Token").first().inputValue())).toBe("")

          // An operation's table of errors (rendered as the reader scrolls to it): every code on one
          // line, whole, however narrow the column (the table scrolls sideways instead).
          const errors = page.locator("table:has-text('idempotency_key_reused')").first()
          yield* promise(async () => {
            for (let scrolled = 0; scrolled < 80 && (await errors.count()) === 0; scrolled++) await page.mouse.wheel(0, 1500)
            await errors.scrollIntoViewIfNeeded()
          })
          const lines = yield* promise(() =>
            errors.locator("td code").evaluateAll((codes) => codes.map((code) => [code.textContent, code.getClientRects().length]))
          )
          expect(lines.length).toBeGreaterThan(10)
          expect(lines.filter(([, count]) => count !== 1)).toEqual([])
          yield* screenshot(page, SUITE, "3-error-table")

          // A guide, from the link on the landing text: the same origin, no script at all.
          yield* promise(() => page.getByRole("link", { name: "Quick start" }).first().click())
          yield* promise(() => page.getByRole("heading", { name: /Quick start/ }).waitFor())
          yield* screenshot(page, SUITE, "4-guide")

          expect(requests.length).toBeGreaterThan(4)
          expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([])
          expect(violations).toEqual([])
        }))
    }
  )
}
