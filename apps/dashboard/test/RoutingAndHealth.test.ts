import { ProviderConnectionsRepository } from "@orchestrator/core"
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

describe("the dashboard: routing, connections and the overview", () => {
  it("creates rules, reorders them, and the dry run follows the new order", async () => {
    // A new organization has two sandbox connections, sandbox_a (the default) and sandbox_b.
    const shop = await harness.run(merchant())
    const page = await harness.open()
    await signIn(page, shop.secret)
    await page.getByRole("link", { name: "Routing" }).click()
    await page.locator("#rule-form").waitFor()

    // Euro payments to sandbox_b first; everything else to sandbox_a.
    await page.locator("#rule-priority").fill("10")
    await page.locator("#rule-provider").selectOption("sandbox_b")
    await page.locator("#rule-currency").fill("eur")
    await page.locator("#rule-save").click()
    await page.waitForFunction(() => document.querySelectorAll("#rules-table tbody tr").length === 1)
    await page.locator("#rule-priority").fill("20")
    await page.locator("#rule-provider").selectOption("sandbox_a")
    await page.locator("#rule-save").click()
    await page.waitForFunction(() => document.querySelectorAll("#rules-table tbody tr").length === 2)
    await expect.poll(() => column(page, "rules-table", "Provider"), POLL).toEqual(["sandbox_b", "sandbox_a"])
    await expect.poll(() => column(page, "rules-table", "When"), POLL).toEqual(["currency EUR", "every payment"])

    // Payments are not routed by rules yet: the dry run answers as payments go now, and says so.
    await page.locator("#dry-run").click()
    await page.locator("#dry-run-provider").waitFor()
    await expect.poll(() => page.locator("#dry-run-provider").textContent(), POLL).toBe("sandbox_a")
    await expect.poll(() => page.locator("#dry-run-mode").textContent(), POLL).toContain("sent to the default provider (as now)")
    // Asked about routing by the rules, it answers for them.
    const dryRunByRules = async () => {
      await page.locator("#dry-mode").selectOption("rules")
      await page.locator("#dry-run").click()
    }
    await dryRunByRules()
    await expect.poll(() => page.locator("#dry-run-provider").textContent(), POLL).toBe("sandbox_b")
    await expect.poll(() => page.locator("#dry-run-mode").textContent(), POLL).toContain("routed by the rules (not how payments are routed now)")
    await screenshot(page, "routing-dry-run")

    await page.getByRole("button", { name: "Move rule 2 up" }).click()
    await page.waitForFunction(() =>
      [...document.querySelectorAll("#rules-table td[data-label=\"Provider\"]")].map((cell) => cell.textContent).join() === "sandbox_a,sandbox_b"
    )
    await dryRunByRules()
    await page.locator("#dry-run-provider >> text=sandbox_a").waitFor()
    await expect.poll(() => column(page, "dry-run-candidates", "Result"), POLL).toContain("chosen")
    await screenshot(page, "routing-reordered")

    // The API evaluates in the order the dashboard shows.
    const rules = await harness.run(shop.client.routing.list({ urlParams: {} }))
    expect(rules.data.map((rule) => rule.action.provider)).toEqual(["sandbox_a", "sandbox_b"])

    // Disabling the first rule hands euro payments back to the second.
    await page.getByRole("button", { name: "Disable" }).first().click()
    await page.getByRole("button", { name: "Enable" }).waitFor()
    await dryRunByRules()
    await page.locator("#dry-run-provider >> text=sandbox_b").waitFor()

    // Editing the second rule to dollars leaves euro payments to the default provider.
    await page.getByRole("button", { name: "Edit" }).nth(1).click()
    await page.locator("#rule-currency").fill("USD")
    await page.locator("#rule-save").click()
    await page.locator("td[data-label=When] >> text=currency USD").waitFor()
    await dryRunByRules()
    await page.locator("#dry-run-candidates").waitFor()
    await expect.poll(() => page.locator("#dry-run-decision").textContent(), POLL).toContain("(the default provider)")

    // A rule the API refuses (lte below gte) is refused in words.
    await page.locator("#rule-amount-gte").fill("500")
    await page.locator("#rule-amount-lte").fill("100")
    await page.locator("#rule-save").click()
    await page.locator("#rule-result [role=alert]").waitFor()
    expect(problemsOf(page)).toEqual([])
    await page.context().close()
  })

  it("shows a connection in outage turn to error on the overview, with its last error", async () => {
    const shop = await harness.run(Effect.gen(function*() {
      const shop = yield* merchant()
      yield* shop.client.providers.create({ headers: {}, payload: { name: "flaky", type: "sandbox" } as never })
      yield* shop.client.payments.create({ headers: { "idempotency-key": newKey() }, payload: paymentWith("tok_visa", { provider: "flaky" }) })
      return shop
    }))
    const page = await harness.open()
    await signIn(page, shop.secret)
    await page.locator("#health-flaky").waitFor()
    await expect.poll(() => page.locator("#health-flaky").getAttribute("data-status"), POLL).toBe("active")
    await expect.poll(() => page.locator("#health-flaky [data-metric=success-rate]").textContent(), POLL).toBe("100.0%")
    await page.locator("#chart-volume svg").waitFor()

    // The PSP goes down: payments forced to it fail until its circuit opens.
    await harness.run(Effect.gen(function*() {
      const connections = yield* shop.client.providers.list({ urlParams: {} })
      const flaky = connections.data.find((connection) => connection.name === "flaky")!
      yield* shop.client.providers.update({ path: { id: flaky.id }, headers: {}, payload: { settings: { outage: true } } })
      for (let i = 0; i < 6; i++) {
        yield* Effect.either(shop.client.payments.create({
          headers: { "idempotency-key": newKey() },
          payload: paymentWith("tok_visa", { provider: "flaky" })
        }))
      }
    }))
    await page.reload()
    await page.locator("#health-flaky[data-status=error]").waitFor()
    // The error, and when it happened.
    const lastError = () => page.locator("#health-flaky [data-metric=last-error]").textContent()
    await expect.poll(lastError, POLL).toMatch(/outage.*\(.*\d{4}.*\)/)
    await expect.poll(() => page.locator("#health-sandbox_a").getAttribute("data-status"), POLL).toBe("active")
    await screenshot(page, "overview-outage")

    await page.getByRole("link", { name: "Connections" }).click()
    const statuses = await column(page, "connections-table", "Status")
    const names = await column(page, "connections-table", "Name")
    expect(statuses[names.indexOf("flaky")]).toBe("error")
    expect((await column(page, "connections-table", "Circuit"))[names.indexOf("flaky")]).toBe("open")
    expect((await column(page, "connections-table", "Last error"))[names.indexOf("flaky")]).toMatch(/outage/)
    await screenshot(page, "connections")

    // The PSP is back and the circuit's trial call gets through: the connection is healthy again, and
    // its card says so instead of keeping the outage's error.
    await harness.run(Effect.gen(function*() {
      const connections = yield* shop.client.providers.list({ urlParams: {} })
      const flaky = connections.data.find((connection) => connection.name === "flaky")!
      yield* shop.client.providers.update({ path: { id: flaky.id }, headers: {}, payload: { settings: {} } })
      yield* (yield* ProviderConnectionsRepository).recordSuccess(flaky.id, yield* DateTime.now)
    }))
    await page.getByRole("link", { name: "Overview" }).click()
    await expect.poll(() => page.locator("#health-flaky").getAttribute("data-status"), POLL).toBe("active")
    await expect.poll(lastError, POLL).toBe("none")
    expect(problemsOf(page)).toEqual([])
    await page.context().close()
  })

  it("fits a phone screen: the payments table becomes labelled rows", async () => {
    const shop = await harness.run(Effect.gen(function*() {
      const shop = yield* merchant()
      yield* shop.client.payments.create({ headers: { "idempotency-key": newKey() }, payload: paymentWith("tok_visa") })
      return shop
    }))
    const page = await harness.open({ phone: true })
    await signIn(page, shop.secret)
    await screenshot(page, "phone-overview")
    await page.getByRole("link", { name: "Payments" }).click()
    await page.locator("#payments-table").waitFor()
    // Nothing wider than the screen: no sideways scrolling on a phone.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), POLL).toBeLessThanOrEqual(390)
    await expect.poll(() => page.locator("#mode-banner").isVisible(), POLL).toBe(true)
    await screenshot(page, "phone-payments")
    expect(problemsOf(page)).toEqual([])
    await page.context().close()
  })
})
