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
      it.scoped("loads only from its own origin, under a strict policy, and sends the quick start's payment with a key given to Authentication", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
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
          const idempotencyKey = client.locator(".cm-content").filter({ hasText: /^idempotency-key$/ })
            .locator("xpath=following::div[contains(@class,'cm-content')][1]")
          yield* replaceEditorText(page, idempotencyKey, "docs-quick-start-1")
          yield* replaceEditorText(page, client.locator(".cm-content").filter({ hasText: /"amount"/ }), QUICK_START_BODY)
          yield* promise(() => client.getByRole("button", { name: /^Send/ }).first().click())
          yield* promise(() => client.getByText("201 Created").waitFor())
          yield* promise(() => client.getByText("\"status\": \"succeeded\"").first().waitFor())
          yield* screenshot(page, SUITE, "2-payment-sent")

          // The payment is real: the service has it, under the key the page was given.
          const list = yield* raw(`${baseUrl}/v1/payments?limit=1`, { headers: json(secret) })
          expect([list.json.data[0].amount, list.json.data[0].status]).toEqual([2500, "succeeded"])

          // Nothing of it was kept: no storage holds the key, and a reload forgets it.
          const stored = yield* promise(() =>
            page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie)
          )
          expect(stored).not.toContain(secret)
          expect(yield* promise(() => page.evaluate(() => indexedDB.databases()))).toEqual([])
          yield* promise(() => page.reload())
          yield* promise(() => page.getByPlaceholder("Token").first().waitFor())
          expect(yield* promise(() => page.getByPlaceholder("Token").first().inputValue())).toBe("")

          // A guide, from the link on the landing text: the same origin, no script at all.
          yield* promise(() => page.getByRole("link", { name: "Quick start" }).first().click())
          yield* promise(() => page.getByRole("heading", { name: /Quick start/ }).waitFor())
          yield* screenshot(page, SUITE, "3-guide")

          expect(requests.length).toBeGreaterThan(4)
          expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([])
          expect(violations).toEqual([])
        }))
    }
  )
}
