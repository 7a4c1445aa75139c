import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { newKey, paymentWith } from "../../http/test/support/Fixtures.js"
import { merchant } from "../../http/test/support/TestServer.js"
import { column, type DashboardHarness, problemsOf, screenshot, signIn, startHarness } from "./support/DashboardHarness.js"

/** Pages render after their requests answer: every reading is retried until it holds, or 10 s. */
const POLL = { timeout: 10_000 }

const NUMBER = "4242424242424242"
const year = new Date().getUTCFullYear() + 3

let harness: DashboardHarness

beforeAll(async () => {
  // Every organization of this suite may send raw card numbers, as the operator's setting would allow.
  harness = await startHarness({ rawCardData: () => true })
})
afterAll(() => harness?.close())

/** A card vaulted through the API and paid with once on the sandbox. */
const paidWithVaultedCard = () =>
  harness.run(Effect.gen(function*() {
    const shop = yield* merchant()
    const card = yield* shop.client.paymentMethods.create({
      payload: { type: "card", card: { number: NUMBER, exp_month: 7, exp_year: year, cvc: "123" } }
    })
    const payment = yield* shop.client.payments.create({ headers: { "idempotency-key": newKey() }, payload: paymentWith(card.id, { amount: 2300 }) })
    return { ...shop, card, payment }
  }))

describe("the dashboard: a vaulted card", () => {
  it("follows a payment to its card, masked, with the access for that payment, and deletes it once confirmed", async () => {
    const shop = await paidWithVaultedCard()
    expect(shop.payment.status).toBe("succeeded")

    const page = await harness.open()
    await signIn(page, shop.secret)
    await page.goto(`${harness.baseUrl}/dashboard#/payments/${shop.payment.id}`)
    await expect.poll(() => page.locator("#payment-id").textContent(), POLL).toBe(shop.payment.id)
    await expect.poll(() => page.locator("#payment-method-link").textContent(), POLL).toBe(
      `visa •••• 4242, expires 07/${year} ${shop.card.id}`
    )
    expect(await page.content()).not.toContain(NUMBER)

    await page.locator("#payment-method-link").click()
    await expect.poll(() => page.locator("#payment-method-id").textContent(), POLL).toBe(shop.card.id)
    await expect.poll(() => page.locator("#payment-method-title").textContent(), POLL).toBe("visa •••• 4242")
    // The documented facts and nothing else: a field the API might add is not drawn unless named here.
    expect(await page.locator("dl.facts dt").allTextContents()).toEqual(["Payment method", "Card", "Expires", "Country", "Funding", "Fingerprint", "Created"])
    const facts = await page.locator("dl.facts").innerText()
    expect(facts).toContain(`07/${year}`)
    expect(facts).toContain("US")
    expect(facts).toContain("credit")
    expect(facts).toContain(shop.card.card.fingerprint)
    expect(await column(page, "payment-method-accesses-table", "Purpose")).toEqual(["authorization"])
    expect(await column(page, "payment-method-accesses-table", "Payment")).toEqual([shop.payment.id])
    expect(await column(page, "payment-method-accesses-table", "Connection")).toEqual([shop.payment.provider])
    // Nothing beyond the last four digits, anywhere in the page (its text, attributes or scripts' output).
    const html = await page.content()
    expect(html).not.toContain(NUMBER)
    expect(html).not.toContain(NUMBER.slice(0, 12))
    await screenshot(page, "payment-method")

    // Cancelling the confirmation keeps the card; confirming destroys it, and the page says so.
    await page.getByRole("button", { name: "Delete card…" }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click()
    expect((await harness.run(shop.client.paymentMethods.retrieve({ path: { id: shop.card.id } }))).id).toBe(shop.card.id)
    await page.getByRole("button", { name: "Delete card…" }).click()
    await page.getByRole("dialog").locator("[data-confirm]").click()
    await expect.poll(() => page.locator("#payment-method-notice").textContent(), POLL).toContain("The card's data is destroyed")
    expect(await page.locator("#payment-method-id").count()).toBe(0)
    const gone = await harness.run(Effect.flip(shop.client.paymentMethods.retrieve({ path: { id: shop.card.id } })))
    expect(gone._tag).toBe("PaymentMethodNotFound")
    await screenshot(page, "payment-method-deleted")

    // The payment keeps its history and says its card is deleted; the card's own page is gone.
    await page.goto(`${harness.baseUrl}/dashboard#/payments/${shop.payment.id}`)
    await expect.poll(() => page.locator("#payment-method-link").textContent(), POLL).toBe(`${shop.card.id} (deleted)`)
    await page.goto(`${harness.baseUrl}/dashboard#/payment_methods/${shop.card.id}`)
    await expect.poll(() => page.locator("#content [role=alert]").textContent(), POLL).toMatch(/payment method/i)
    expect(problemsOf(page)).toEqual([])
  })

  it("pages through a card's accesses, newest first", async () => {
    const shop = await paidWithVaultedCard()
    const more = await harness.run(
      Effect.forEach(
        Array.from({ length: 20 }),
        () => shop.client.payments.create({ headers: { "idempotency-key": newKey() }, payload: paymentWith(shop.card.id, { amount: 100 }) })
      )
    )
    const page = await harness.open()
    await signIn(page, shop.secret)
    await page.goto(`${harness.baseUrl}/dashboard#/payment_methods/${shop.card.id}`)
    await expect.poll(() => column(page, "payment-method-accesses-table", "Payment"), POLL).toEqual(more.map((payment) => payment.id).reverse())
    await page.locator("#next-page").click()
    await expect.poll(() => column(page, "payment-method-accesses-table", "Payment"), POLL).toEqual([shop.payment.id])
    expect(await page.locator("#next-page").count()).toBe(0)
    expect(problemsOf(page)).toEqual([])
  })
})
