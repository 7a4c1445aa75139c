import { Organizations } from "@orchestrator/core"
import { DateTime, Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkoutSetup, sessionBody } from "../../http/test/support/CheckoutFixtures.js"
import { EUR, newKey } from "../../http/test/support/Fixtures.js"
import { merchant } from "../../http/test/support/TestServer.js"
import { column, type DashboardHarness, problemsOf, screenshot, signIn, startHarness } from "./support/DashboardHarness.js"

/** Pages render after their requests answer: every reading is retried until it holds, or 10 s. */
const POLL = { timeout: 10_000 }

let harness: DashboardHarness

beforeAll(async () => {
  harness = await startHarness()
})
afterAll(() => harness?.close())

/**
 * A merchant whose monthly subscription paid its first period, then had its card declined at the
 * renewal (the clock moved past the period's end), and has a plan change waiting.
 */
const subscriptionWithDeclinedRenewal = () =>
  harness.run(Effect.gen(function*() {
    const shop = yield* merchant()
    const { client } = shop
    const clock = yield* client.testClocks.create({ headers: {}, payload: { frozen_time: DateTime.unsafeMake("2027-01-31T10:00:00.000Z") } })
    const customer = yield* client.customers.create({ headers: {}, payload: { email: "jenny@example.com", test_clock: clock.id } })
    const monthly = yield* client.plans.create({ headers: {}, payload: { amount: 1999, currency: EUR, interval: "month" } })
    const bigger = yield* client.plans.create({ headers: {}, payload: { amount: 2999, currency: EUR, interval: "month" } })
    const created = yield* client.subscriptions.create({
      headers: { "idempotency-key": newKey() },
      payload: { customer: customer.id, plan: monthly.id, payment_method: "tok_visa" }
    })
    yield* client.subscriptions.update({ path: { id: created.id }, headers: {}, payload: { payment_method: "tok_chargeDeclined" } })
    yield* client.testClocks.advance({ path: { id: clock.id }, headers: {}, payload: { frozen_time: DateTime.unsafeMake("2027-03-01T10:00:00.000Z") } })
    const subscription = yield* client.subscriptions.update({ path: { id: created.id }, headers: {}, payload: { plan: bigger.id } })
    const invoices = yield* client.invoices.list({ urlParams: { subscription: created.id } })
    return { ...shop, customer, monthly, bigger, first: created, subscription, invoices: invoices.data }
  }))

describe("the dashboard: subscriptions, invoices and checkout sessions", () => {
  it("finds a subscription by filter, reads its period, plan change and invoices, and follows them to their payments", async () => {
    const shop = await subscriptionWithDeclinedRenewal()
    const [renewal, firstInvoice] = shop.invoices
    expect(shop.invoices).toHaveLength(2)
    expect([firstInvoice!.status, firstInvoice!.payment?.status]).toEqual(["paid", "succeeded"])
    expect(renewal!.payment?.status).toBe("failed")
    expect(shop.subscription.pending_update?.plan_id).toBe(shop.bigger.id)

    const page = await harness.open()
    await signIn(page, shop.secret)
    await page.getByRole("link", { name: "Subscriptions", exact: true }).click()
    await expect.poll(() => column(page, "subscriptions-table", "Subscription"), POLL).toEqual([shop.subscription.id])
    // A status it does not have finds nothing; its own status and its plan find it.
    await page.locator("#filter-status").selectOption("active")
    await page.getByRole("button", { name: "Filter" }).click()
    await page.waitForURL(/status=active/)
    await page.locator("text=No subscription matches these filters.").waitFor()
    await page.goto(`${harness.baseUrl}/dashboard#/subscriptions`)
    await page.locator("#filter-status").selectOption(shop.subscription.status)
    await page.locator("#filter-plan").fill(shop.monthly.id)
    await page.getByRole("button", { name: "Filter" }).click()
    await page.waitForURL(/plan=/)
    await expect.poll(() => column(page, "subscriptions-table", "Subscription"), POLL).toEqual([shop.subscription.id])
    await expect.poll(() => column(page, "subscriptions-table", "Status"), POLL).toEqual([shop.subscription.status.replaceAll("_", " ")])
    await screenshot(page, "subscriptions-filtered")

    await page.getByRole("link", { name: shop.subscription.id }).click()
    await page.locator("#subscription-title").waitFor()
    await expect.poll(() => page.locator("#subscription-status").textContent(), POLL).toBe(shop.subscription.status.replaceAll("_", " "))
    await expect.poll(() => page.locator("#subscription-plan").textContent(), POLL).toBe(shop.monthly.id)
    await expect.poll(() => page.locator("#pending-update").textContent(), POLL).toContain(shop.bigger.id)
    await expect.poll(() => page.locator("#subscription-period").textContent(), POLL).toContain("2027")
    await expect.poll(() => page.locator("#latest-invoice").textContent(), POLL).toContain(renewal!.id)
    await expect.poll(() => column(page, "invoices-table", "Invoice"), POLL).toEqual([renewal!.id, firstInvoice!.id])
    await expect.poll(() => column(page, "invoices-table", "Reason"), POLL).toEqual(["renewal", "first period"])
    await expect.poll(() => column(page, "invoices-table", "Paid"), POLL).toEqual(["0.00 EUR", "19.99 EUR"])
    await screenshot(page, "subscription")

    // The declined renewal's payment, on the payment page, says why.
    await page.locator("#invoices-table").getByRole("link", { name: renewal!.payment!.id }).click()
    await page.locator("#payment-failure").waitFor()
    await expect.poll(() => page.locator("#payment-id").textContent(), POLL).toBe(renewal!.payment!.id)
    await expect.poll(() => page.locator("#payment-failure").textContent(), POLL).toContain("card_declined")

    // The renewal's page lists the payment of each attempt to collect it, every one declined.
    await page.goBack()
    await page.locator("#invoices-table").getByRole("link", { name: renewal!.id }).click()
    await expect.poll(() => page.locator("#invoice-status").textContent(), POLL).toBe(renewal!.status)
    await expect.poll(() => column(page, "invoice-payments-table", "Payment"), POLL).toContain(renewal!.payment!.id)
    await expect.poll(() => column(page, "invoice-payments-table", "Status"), POLL).toEqual(Array(renewal!.attempt_count).fill("failed"))
    await screenshot(page, "invoice-declined")

    // Invoices: the list by subscription, and the first invoice's page with its payment.
    await page.getByRole("link", { name: "Invoices", exact: true }).click()
    await page.locator("#filter-subscription").fill(shop.subscription.id)
    await page.getByRole("button", { name: "Filter" }).click()
    await page.waitForURL(/subscription=/)
    await expect.poll(() => column(page, "invoices-table", "Invoice"), POLL).toEqual([renewal!.id, firstInvoice!.id])
    await expect.poll(() => column(page, "invoices-table", "Status"), POLL).toEqual([renewal!.status, "paid"])
    await screenshot(page, "invoices")
    await page.getByRole("link", { name: firstInvoice!.id }).click()
    await expect.poll(() => page.locator("#invoice-status").textContent(), POLL).toBe("paid")
    await expect.poll(() => column(page, "invoice-payments-table", "Payment"), POLL).toEqual([firstInvoice!.payment!.id])
    await screenshot(page, "invoice")
    await page.locator("#invoice-payment").getByRole("link", { name: firstInvoice!.payment!.id }).click()
    await expect.poll(() => page.locator("#payment-id").textContent(), POLL).toBe(firstInvoice!.payment!.id)
    await expect.poll(() => page.locator("#payment-title").textContent(), POLL).toContain("succeeded")
    expect(problemsOf(page)).toEqual([])
    await page.context().close()

    // On a phone: the same subscription, every table a card per row.
    const phone = await harness.open({ phone: true })
    await signIn(phone, shop.secret)
    await phone.goto(`${harness.baseUrl}/dashboard#/subscriptions/${shop.subscription.id}`)
    await expect.poll(() => column(phone, "invoices-table", "Invoice"), POLL).toHaveLength(2)
    await screenshot(phone, "subscription-phone")
    expect(problemsOf(phone)).toEqual([])
    await phone.context().close()
  })

  it("shows a rerouted checkout session with its excluded provider and both payments, never its client secret", async () => {
    const shop = await harness.run(Effect.gen(function*() {
      const setup = yield* checkoutSetup()
      const declined = yield* setup.confirm("tok_chargeDeclined")
      yield* setup.reroute({ exclude_provider: "sandbox_a" })
      const paid = yield* setup.confirm("tok_visa")
      const liveKey = yield* Effect.flatMap(
        Organizations,
        (organizations) => Effect.map(organizations.createKey(setup.organization.id, true), ({ secret }) => secret)
      )
      return { ...setup, declinedId: declined.json.payment.id as string, paidId: paid.json.payment.id as string, liveKey }
    }))
    const sessionId: string = shop.session.id
    const clientSecret: string = shop.session.client_secret
    expect(clientSecret).toMatch(/_secret_/)

    const page = await harness.open()
    await signIn(page, shop.secret)
    await page.getByRole("link", { name: "Checkout", exact: true }).click()
    await expect.poll(() => column(page, "checkout-table", "Session"), POLL).toEqual([sessionId])
    await expect.poll(() => column(page, "checkout-table", "Status"), POLL).toEqual(["complete"])
    await expect.poll(() => column(page, "checkout-table", "Payments"), POLL).toEqual(["2"])
    await page.locator("#filter-status").selectOption("open")
    await page.getByRole("button", { name: "Filter" }).click()
    await page.locator("text=No checkout session matches these filters.").waitFor()
    await page.locator("#filter-status").selectOption("complete")
    await page.getByRole("button", { name: "Filter" }).click()
    await expect.poll(() => column(page, "checkout-table", "Session"), POLL).toEqual([sessionId])
    expect(await page.content()).not.toContain(clientSecret)
    await screenshot(page, "checkout-sessions")

    await page.getByRole("link", { name: sessionId }).click()
    await expect.poll(() => page.locator("#session-status").textContent(), POLL).toBe("complete")
    await expect.poll(() => page.locator("#session-title").textContent(), POLL).toContain("25.00 EUR")
    await expect.poll(() => page.locator("#session-provider").textContent(), POLL).toContain("sandbox_b")
    await expect.poll(() => page.locator("#session-excluded").textContent(), POLL).toBe("sandbox_a")
    await expect.poll(() => column(page, "session-payments-table", "Payment"), POLL).toEqual([shop.paidId, shop.declinedId])
    await expect.poll(() => column(page, "session-payments-table", "Provider"), POLL).toEqual(["sandbox_b", "sandbox_a"])
    await expect.poll(() => column(page, "session-payments-table", "Status"), POLL).toEqual(["succeeded", "failed"])
    // The secret is neither on the page nor anywhere the dashboard keeps things.
    expect(await page.content()).not.toContain(clientSecret)
    expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }) + location.href))
      .not.toContain("_secret_")
    await screenshot(page, "checkout-session")

    await page.getByRole("link", { name: shop.declinedId }).click()
    await expect.poll(() => page.locator("#payment-id").textContent(), POLL).toBe(shop.declinedId)
    await expect.poll(() => page.locator("#payment-failure").textContent(), POLL).toContain("card_declined")
    await page.goBack()
    await page.getByRole("link", { name: shop.paidId }).click()
    await expect.poll(() => page.locator("#payment-id").textContent(), POLL).toBe(shop.paidId)
    await expect.poll(() => page.locator("#payment-title").textContent(), POLL).toContain("succeeded")

    // Live mode shows none of the test session.
    await page.locator("#mode-switch").click()
    await signIn(page, shop.liveKey)
    await expect.poll(() => page.locator("#mode-banner").getAttribute("data-mode"), POLL).toBe("live")
    await page.getByRole("link", { name: "Checkout", exact: true }).click()
    await page.locator("text=No checkout session matches these filters.").waitFor()
    await expect.poll(() => page.content(), POLL).not.toContain(sessionId)
    expect(problemsOf(page)).toEqual([])
    await page.context().close()
  })

  it("pages through checkout sessions with the cursor", async () => {
    const shop = await harness.run(Effect.gen(function*() {
      const shop = yield* merchant()
      for (let i = 0; i < 22; i++) {
        yield* shop.client.checkoutSessions.create({
          headers: { "idempotency-key": newKey() },
          payload: { ...sessionBody, currency: EUR, amount: 100 + i }
        })
      }
      return shop
    }))
    const page = await harness.open()
    await signIn(page, shop.secret)
    await page.getByRole("link", { name: "Checkout", exact: true }).click()
    await expect.poll(() => column(page, "checkout-table", "Session"), POLL).toHaveLength(20)
    const first = await column(page, "checkout-table", "Session")
    await page.locator("#next-page").click()
    await page.waitForURL(/starting_after=/)
    await expect.poll(() => column(page, "checkout-table", "Session"), POLL).toHaveLength(2)
    const second = await column(page, "checkout-table", "Session")
    expect(second.filter((id) => first.includes(id))).toEqual([])
    await expect.poll(() => column(page, "checkout-table", "Amount"), POLL).toEqual(["1.01 EUR", "1.00 EUR"])
    await expect.poll(() => page.locator("#next-page").count(), POLL).toBe(0)
    expect(problemsOf(page)).toEqual([])
    await page.context().close()
  })

  it("says in words when a subscription does not exist", async () => {
    const shop = await harness.run(merchant())
    const page = await harness.open()
    await signIn(page, shop.secret)
    await page.goto(`${harness.baseUrl}/dashboard#/subscriptions/sub_doesnotexist`)
    const refusal = page.locator("#content [role=alert]")
    await refusal.waitFor()
    await expect.poll(() => refusal.textContent(), POLL).toMatch(/subscription/i)
    expect(problemsOf(page)).toEqual([])
    await page.context().close()
  })
})
