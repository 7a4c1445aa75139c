import { WebhookDeliveryPolicy } from "@orchestrator/core"
import { Duration, Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { newKey, paymentWith } from "../../http/test/support/Fixtures.js"
import { startReceiver } from "../../http/test/support/Receiver.js"
import { deliverWebhooks, merchant, runJobs } from "../../http/test/support/TestServer.js"
import { column, type DashboardHarness, problemsOf, screenshot, signIn, startHarness } from "./support/DashboardHarness.js"

/** Pages render after their requests answer: every reading is retried until it holds, or 10 s. */
const POLL = { timeout: 10_000 }

let harness: DashboardHarness
const scope = Effect.runSync(Scope.make())

beforeAll(async () => {
  harness = await startHarness()
})
afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await harness?.close()
})

/**
 * A merchant whose receiver missed `count` payment.succeeded deliveries for good: the endpoint was
 * disabled when they were due, so each is exhausted (the dead-letter set). The endpoint is active again.
 */
const merchantWithDeadLetters = (count: number) =>
  harness.run(Effect.gen(function*() {
    const shop = yield* merchant()
    const receiver = yield* Scope.extend(startReceiver, scope)
    const endpoint = yield* shop.client.webhooks.createEndpoint({
      headers: {},
      payload: { url: receiver.url, enabled_events: ["payment.succeeded"] } as never
    })
    for (let i = 0; i < count; i++) {
      yield* shop.client.payments.create({ headers: { "idempotency-key": newKey() }, payload: paymentWith("tok_visa") })
    }
    yield* runJobs("dispatch-events")
    yield* shop.client.webhooks.updateEndpoint({ path: { id: endpoint.id }, headers: {}, payload: { status: "disabled" } })
    yield* runJobs("deliver-webhooks")
    yield* shop.client.webhooks.updateEndpoint({ path: { id: endpoint.id }, headers: {}, payload: { status: "active" } })
    const exhausted = yield* shop.client.webhooks.listDeliveries({ urlParams: { status: "exhausted" } })
    return { ...shop, receiver, endpoint, exhausted: exhausted.data }
  }))

describe("the dashboard: webhooks", () => {
  it("resends an exhausted delivery with one click and shows it succeed at the receiver", async () => {
    const shop = await merchantWithDeadLetters(1)
    expect(shop.exhausted).toHaveLength(1)
    const page = await harness.open()
    await signIn(page, shop.secret)
    await page.getByRole("link", { name: "Webhooks" }).click()
    await page.locator("#filter-delivery-status").selectOption("exhausted")
    await page.getByRole("button", { name: "Filter" }).click()
    await page.waitForURL(/status=exhausted/)
    await expect.poll(() => column(page, "deliveries-table", "Status"), POLL).toEqual(["exhausted"])
    await screenshot(page, "webhooks-dead-letters")

    await page.getByRole("link", { name: shop.exhausted[0]!.id }).click()
    await expect.poll(() => column(page, "attempts-table", "Error"), POLL).toEqual([expect.stringContaining("disabled")])
    await page.locator("#resend").click()
    await page.locator("#delivery-status >> text=pending").waitFor()

    await harness.run(deliverWebhooks)
    await page.locator("#refresh").click()
    await page.locator("#delivery-status >> text=succeeded").waitFor()
    await expect.poll(() => column(page, "attempts-table", "Answer"), POLL).toEqual(["no answer", "HTTP 200"])
    await expect.poll(() => column(page, "attempts-table", "Response body"), POLL).toEqual(["", "thanks"])
    await screenshot(page, "webhook-delivery-resent")
    expect(shop.receiver.received.map((request) => request.headers["service-delivery-id"])).toEqual([shop.exhausted[0]!.id])
    expect(problemsOf(page)).toEqual([])
    await page.context().close()
  })

  it("bulk-resends the dead-letter set after saying how many it will send", async () => {
    const shop = await merchantWithDeadLetters(3)
    const page = await harness.open()
    await signIn(page, shop.secret)
    await page.getByRole("link", { name: "Webhooks" }).click()
    await page.locator("#bulk-resend").click()
    const dialog = page.getByRole("dialog")
    await dialog.waitFor()
    await expect.poll(() => dialog.textContent(), POLL).toContain("3 exhausted deliveries")
    await screenshot(page, "webhooks-bulk-confirm")
    await dialog.locator("[data-confirm]").click()
    await page.locator("#bulk-result >> text=3 deliveries queued").waitFor()

    await harness.run(deliverWebhooks)
    expect(shop.receiver.received).toHaveLength(3)
    const left = await harness.run(shop.client.webhooks.listDeliveries({ urlParams: { status: "exhausted" } }))
    expect(left.data).toEqual([])
    // Nothing left to resend: the button says so instead of sending nothing.
    await page.locator("#bulk-resend").click()
    await page.locator("#bulk-result [role=alert] >> text=no exhausted delivery").waitFor()
    expect(problemsOf(page)).toEqual([])
    await page.context().close()
  })

  it("shows an endpoint the service disabled after its deliveries kept failing, and one failing now", async () => {
    const shop = await harness.run(merchant())
    const { broken, failing } = await harness.run(Effect.gen(function*() {
      const down = yield* Scope.extend(startReceiver, scope)
      down.answerWith(503)
      const broken = yield* shop.client.webhooks.createEndpoint({ headers: {}, payload: { url: `${down.url}/a` } as never })
      yield* shop.client.payments.create({ headers: { "idempotency-key": newKey() }, payload: paymentWith("tok_visa") })
      // Every attempt fails: with a policy that gives up at the first failure, the service disables it.
      yield* deliverWebhooks.pipe(
        Effect.provideService(WebhookDeliveryPolicy, { ...WebhookDeliveryPolicy.defaultValue(), disableAfter: Duration.zero })
      )
      const failing = yield* shop.client.webhooks.createEndpoint({ headers: {}, payload: { url: `${down.url}/b` } as never })
      yield* shop.client.payments.create({ headers: { "idempotency-key": newKey() }, payload: paymentWith("tok_visa") })
      yield* deliverWebhooks
      return { broken, failing }
    }))
    const page = await harness.open()
    await signIn(page, shop.secret)
    await page.getByRole("link", { name: "Webhooks" }).click()
    const disabled = page.locator(`[data-endpoint-notice="${broken.id}"]`)
    await disabled.waitFor()
    await expect.poll(() => disabled.textContent(), POLL).toMatch(
      /is disabled\. Every delivery to it failed since .* disables an endpoint after 3 days.*Fix the receiver, enable the endpoint/
    )
    await expect.poll(() => disabled.getAttribute("role"), POLL).toBe("alert")
    const warned = page.locator(`[data-endpoint-notice="${failing.id}"]`)
    await expect.poll(() => warned.textContent(), POLL).toMatch(/is failing.*disabled once that has lasted 3 days/)
    await expect.poll(() => column(page, "endpoints-table", "Status"), POLL).toEqual(["active", "disabled"])
    await screenshot(page, "webhooks-endpoint-disabled-by-service")
    expect(problemsOf(page)).toEqual([])
    await page.context().close()
  })

  it("adds an endpoint showing its secret once, and disables it", async () => {
    const shop = await harness.run(merchant())
    const page = await harness.open()
    await signIn(page, shop.secret)
    await page.getByRole("link", { name: "Webhooks" }).click()
    await page.locator("#endpoint-url").fill("http://127.0.0.1:9/hooks")
    await page.locator("#endpoint-events").fill("payment.failed, refund.succeeded")
    await page.getByRole("button", { name: "Add endpoint" }).click()
    const secret = page.locator("#endpoint-secret")
    await secret.waitFor()
    await expect.poll(() => secret.textContent(), POLL).toMatch(/whsec_/)
    await expect.poll(() => column(page, "endpoints-table", "Events"), POLL).toEqual(["payment.failed, refund.succeeded"])
    await screenshot(page, "webhooks-endpoint-created")

    const first = (await secret.textContent())!.match(/whsec_\w+/)![0]

    await page.reload()
    await page.locator("#endpoints-table").waitFor()
    await expect.poll(() => page.locator("#endpoint-secret").count(), POLL).toBe(0)
    await page.getByRole("button", { name: "Rotate secret" }).click()
    await page.getByRole("dialog").locator("[data-confirm]").click()
    await page.locator("#endpoint-secret").waitFor()
    const rotated = (await page.locator("#endpoint-secret").textContent())!.match(/whsec_\w+/)![0]
    expect(rotated).not.toBe(first)
    await page.getByRole("button", { name: "Disable" }).click()
    await page.getByRole("dialog").locator("[data-confirm]").click()
    await page.getByRole("button", { name: "Enable" }).waitFor()
    await expect.poll(() => column(page, "endpoints-table", "Status"), POLL).toEqual(["disabled"])

    // A URL the API refuses is refused in words.
    await page.locator("#endpoint-url").fill("ftp://nowhere.example")
    await page.getByRole("button", { name: "Add endpoint" }).click()
    const refusal = page.locator("#endpoint-result [role=alert]")
    await refusal.waitFor()
    await expect.poll(() => refusal.textContent(), POLL).toMatch(/not valid|url|https?/i)
    expect(problemsOf(page)).toEqual([])
    await page.context().close()
  })
})
