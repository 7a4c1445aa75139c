import { type Currency, Organizations } from "@orchestrator/core"
import { DateTime, Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { newKey, paymentWith } from "../../http/test/support/Fixtures.js"
import { merchant } from "../../http/test/support/TestServer.js"
import { column, type DashboardHarness, problemsOf, screenshot, signIn, startHarness } from "./support/DashboardHarness.js"

/** Pages render after their requests answer: every reading is retried until it holds, or 10 s. */
const POLL = { timeout: 10_000 }

let harness: DashboardHarness

beforeAll(async () => {
  harness = await startHarness()
})
afterAll(() => harness?.close())

/** A merchant with one payment that succeeded and one the card declined. */
const merchantWithPayments = () =>
  harness.run(Effect.gen(function*() {
    const shop = yield* merchant()
    const paid = yield* shop.client.payments.create({ headers: { "idempotency-key": newKey() }, payload: paymentWith("tok_visa", { amount: 2500 }) })
    const declined = yield* Effect.flip(
      shop.client.payments.create({ headers: { "idempotency-key": newKey() }, payload: paymentWith("tok_chargeDeclined") })
    )
    const failed = (declined as { error: { payment?: { id: string } } }).error.payment!
    return { ...shop, paid, failedId: failed.id }
  }))

describe("the dashboard: sign-in and payments", () => {
  it("is served with a strict Content-Security-Policy and its own bundled script", async () => {
    const page = await fetch(`${harness.baseUrl}/dashboard`)
    expect(page.status).toBe(200)
    const policy = page.headers.get("content-security-policy") ?? ""
    expect(policy).toContain("script-src 'self'")
    expect(policy).toContain("default-src 'none'")
    expect(policy).not.toContain("unsafe-inline")
    expect(await page.text()).toContain(`src="/dashboard/app.js"`)
    const script = await fetch(`${harness.baseUrl}/dashboard/app.js`)
    expect(script.status).toBe(200)
    expect(script.headers.get("content-type")).toContain("javascript")
    // Nothing is loaded from anywhere else: the bundle names no other origin to fetch from.
    expect(await script.text()).not.toMatch(/https:\/\/(cdn|unpkg|esm\.sh|cdnjs)/)
  })

  it("refuses a wrong key, then signs in and finds the declined payment by filter with its attempts", async () => {
    const shop = await merchantWithPayments()
    const page = await harness.open()
    await page.locator("#api-key").fill(`sk_test_${"x".repeat(40)}`)
    await page.getByRole("button", { name: "Sign in" }).click()
    const refusal = page.getByRole("alert")
    await refusal.waitFor()
    await expect.poll(() => refusal.textContent(), POLL).toMatch(/key/i)
    await expect.poll(() => page.locator("#mode-banner").count(), POLL).toBe(0)
    await expect.poll(() => page.evaluate(() => sessionStorage.length), POLL).toBe(0)
    await screenshot(page, "sign-in-refused")

    await signIn(page, shop.secret)
    await expect.poll(() => page.locator("#mode-banner").getAttribute("data-mode"), POLL).toBe("test")
    await page.getByRole("link", { name: "Payments" }).click()
    await page.locator("#filter-status").selectOption("failed")
    await page.getByRole("button", { name: "Filter" }).click()
    await page.waitForURL(/status=failed/)
    await expect.poll(() => column(page, "payments-table", "Status"), POLL).toEqual(["failed"])
    await screenshot(page, "payments-filtered")

    await page.getByRole("link", { name: shop.failedId }).click()
    await page.locator("#payment-failure").waitFor()
    await expect.poll(() => page.locator("#payment-failure").textContent(), POLL).toContain("card_declined")
    await expect.poll(() => column(page, "attempts-table", "Provider"), POLL).toEqual(["sandbox_a"])
    await expect.poll(() => column(page, "attempts-table", "Error"), POLL).toEqual(["card_declined"])
    await expect.poll(() => column(page, "attempts-table", "Status"), POLL).toEqual(["failed"])
    // The timeline: the payment's events, oldest first.
    const events = await page.locator("#timeline > li strong").allTextContents()
    expect(events.at(-1)).toBe("payment.failed")
    await screenshot(page, "payment-declined")

    // The key is in this tab's session only: never in the URL or in local storage.
    expect(page.url()).not.toContain(shop.secret)
    await expect.poll(() => page.evaluate(() => localStorage.length), POLL).toBe(0)
    expect(problemsOf(page)).toEqual([])
    await page.context().close()
  })

  it("says so when the key is revoked while signed in, and offers the sign-in form again", async () => {
    const { shop, key, secret } = await harness.run(Effect.gen(function*() {
      const shop = yield* merchant()
      const { key, secret } = yield* Effect.flatMap(Organizations, (organizations) => organizations.createKey(shop.organization.id, false))
      return { shop, key, secret }
    }))
    const page = await harness.open()
    await signIn(page, secret)
    await harness.run(Effect.flatMap(Organizations, (organizations) => organizations.revokeKey(key.id)))
    await page.getByRole("link", { name: "Payments" }).click()
    const refusal = page.locator("#content [role=alert]")
    await refusal.waitFor()
    await expect.poll(() => refusal.textContent(), POLL).toMatch(/key/i)
    await page.locator("#sign-in-again").click()
    await signIn(page, shop.secret)
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem("orchestrator.dashboard.keys")), POLL).not.toContain(secret)
    expect(problemsOf(page)).toEqual([])
    await page.context().close()
  })

  it("pages through payments with the cursor", async () => {
    const shop = await harness.run(Effect.gen(function*() {
      const shop = yield* merchant()
      for (let i = 0; i < 23; i++) {
        yield* shop.client.payments.create({ headers: { "idempotency-key": newKey() }, payload: paymentWith("tok_visa", { amount: 100 + i }) })
      }
      return shop
    }))
    const page = await harness.open()
    await signIn(page, shop.secret)
    await page.getByRole("link", { name: "Payments" }).click()
    await expect.poll(() => column(page, "payments-table", "Amount"), POLL).toHaveLength(20)
    const first = await column(page, "payments-table", "Payment")
    await page.locator("#next-page").click()
    await page.waitForURL(/starting_after=/)
    await page.waitForFunction(() => document.querySelectorAll("#payments-table tbody tr").length === 3)
    const second = await column(page, "payments-table", "Payment")
    expect(second.filter((id) => first.includes(id))).toEqual([])
    await expect.poll(() => page.locator("#next-page").count(), POLL).toBe(0)
    expect(problemsOf(page)).toEqual([])
    await page.context().close()
  })

  it("lists payments in the order they were made: a test clock's, dated years ahead, sits where it was made, marked", async () => {
    const shop = await harness.run(Effect.gen(function*() {
      const shop = yield* merchant()
      const { client } = shop
      const before = yield* client.payments.create({ headers: { "idempotency-key": newKey() }, payload: paymentWith("tok_visa", { amount: 111 }) })
      // A subscription on a test clock in 2028: its first charge is a payment dated then.
      const clock = yield* client.testClocks.create({ headers: {}, payload: { frozen_time: DateTime.unsafeMake("2028-01-31T10:00:00.000Z") } })
      const customer = yield* client.customers.create({ headers: {}, payload: { email: "jenny@example.com", test_clock: clock.id } })
      const plan = yield* client.plans.create({ headers: {}, payload: { amount: 1999, currency: "EUR" as Currency, interval: "month" } })
      yield* client.subscriptions.create({
        headers: { "idempotency-key": newKey() },
        payload: { customer: customer.id, plan: plan.id, payment_method: "tok_visa" }
      })
      const after = yield* client.payments.create({ headers: { "idempotency-key": newKey() }, payload: paymentWith("tok_visa", { amount: 333 }) })
      return { ...shop, before, after, clock }
    }))
    const page = await harness.open()
    await signIn(page, shop.secret)
    await page.getByRole("link", { name: "Payments" }).click()
    await expect.poll(() => column(page, "payments-table", "Amount"), POLL).toEqual(["3.33 EUR", "19.99 EUR", "1.11 EUR"])
    const made = await column(page, "payments-table", "Made")
    // The clock's payment shows when it was made (today), marked, with the clock's time beside it.
    expect(made[1]).toContain("test clock")
    expect(made[1]).toContain("2028")
    expect(made[1]).not.toMatch(/^\D*2028/)
    expect([made[0], made[2]].join()).not.toContain("test clock")
    await screenshot(page, "payments-test-clock")
    expect(problemsOf(page)).toEqual([])
    await page.context().close()
  })

  it("refunds part of a payment after confirming, with an Idempotency-Key", async () => {
    const shop = await merchantWithPayments()
    const page = await harness.open()
    await signIn(page, shop.secret)
    await page.goto(`${harness.baseUrl}/dashboard#/payments/${shop.paid.id}`)
    await page.locator("#refund-amount").fill("5.00")
    await page.locator("#refund").click()
    const dialog = page.getByRole("dialog")
    await expect.poll(() => dialog.textContent(), POLL).toContain("5.00 EUR")
    await screenshot(page, "refund-confirm")
    await dialog.locator("[data-confirm]").click()
    await page.locator("#refunds-table").waitFor()
    await expect.poll(() => column(page, "refunds-table", "Amount"), POLL).toEqual(["5.00 EUR"])
    await expect.poll(() => column(page, "refunds-table", "Status"), POLL).toEqual(["succeeded"])
    await expect.poll(() => page.locator("#timeline > li strong").allTextContents(), POLL).toContain("refund.succeeded")
    await screenshot(page, "payment-refunded")
    const refunds = await harness.run(shop.client.refunds.list({ urlParams: { payment_id: shop.paid.id } }))
    expect(refunds.data.map((refund) => refund.amount)).toEqual([500])

    // Refunding more than is left is refused, and the page says why.
    await page.locator("#refund-amount").fill("100.00")
    await page.locator("#refund").click()
    await page.getByRole("dialog").locator("[data-confirm]").click()
    const failure = page.locator("#action-result [role=alert]")
    await failure.waitFor()
    await expect.poll(() => failure.textContent(), POLL).toMatch(/amount|refund/i)
    expect(problemsOf(page)).toEqual([])
    await page.context().close()
  })

  it("captures an authorized payment only once the confirmation is accepted", async () => {
    const shop = await harness.run(Effect.gen(function*() {
      const shop = yield* merchant()
      const authorized = yield* shop.client.payments.create({
        headers: { "idempotency-key": newKey() },
        payload: paymentWith("tok_visa", { capture: false })
      })
      return { ...shop, authorized }
    }))
    const page = await harness.open()
    await signIn(page, shop.secret)
    await page.goto(`${harness.baseUrl}/dashboard#/payments/${shop.authorized.id}`)
    await page.locator("#capture").click()
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click()
    const untouched = await harness.run(shop.client.payments.retrieve({ path: { id: shop.authorized.id } }))
    expect(untouched.status).toBe("requires_capture")

    await page.locator("#capture").click()
    await page.getByRole("dialog").locator("[data-confirm]").click()
    await page.locator("#payment-title >> text=succeeded").waitFor()
    const captured = await harness.run(shop.client.payments.retrieve({ path: { id: shop.authorized.id } }))
    expect([captured.status, captured.amount_captured]).toEqual(["succeeded", captured.amount])
    expect(problemsOf(page)).toEqual([])
    await page.context().close()
  })

  it("switches between test and live, and never shows test data as live", async () => {
    const shop = await merchantWithPayments()
    const liveKey = await harness.run(
      Effect.flatMap(Organizations, (organizations) => Effect.map(organizations.createKey(shop.organization.id, true), ({ secret }) => secret))
    )
    const page = await harness.open()
    await signIn(page, shop.secret)
    await page.getByRole("link", { name: "Payments" }).click()
    await expect.poll(() => column(page, "payments-table", "Payment"), POLL).toContain(shop.paid.id)
    await expect.poll(() => page.locator("#mode-banner").textContent(), POLL).toContain("TEST MODE")

    await page.locator("#mode-switch").click()
    // A test key does not open live mode.
    await page.locator("#api-key").fill(shop.secret)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("alert").waitFor()
    await expect.poll(() => page.locator("#mode-banner").count(), POLL).toBe(0)

    await signIn(page, liveKey)
    await expect.poll(() => page.locator("#mode-banner").getAttribute("data-mode"), POLL).toBe("live")
    await expect.poll(() => page.locator("#mode-banner").textContent(), POLL).toContain("LIVE MODE")
    await page.getByRole("link", { name: "Payments" }).click()
    await page.locator("#payments-title").waitFor()
    await page.locator("text=No payment matches these filters.").waitFor()
    await expect.poll(() => page.content(), POLL).not.toContain(shop.paid.id)
    await screenshot(page, "payments-live-empty")

    await page.locator("#mode-switch").click()
    await expect.poll(() => page.locator("#mode-banner").getAttribute("data-mode"), POLL).toBe("test")
    await expect.poll(() => column(page, "payments-table", "Payment"), POLL).toContain(shop.paid.id)
    expect(problemsOf(page)).toEqual([])
    await page.context().close()
  })
})
