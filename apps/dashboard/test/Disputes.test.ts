import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { newKey, paymentWith } from "../../http/test/support/Fixtures.js"
import { merchant, runJobs } from "../../http/test/support/TestServer.js"
import { column, type DashboardHarness, problemsOf, screenshot, signIn, startHarness } from "./support/DashboardHarness.js"

/** Pages render after their requests answer: every reading is retried until it holds, or 10 s. */
const POLL = { timeout: 10_000 }

let harness: DashboardHarness

beforeAll(async () => {
  harness = await startHarness()
})
afterAll(() => harness?.close())

/** A sandbox payment its customer disputes at once, and the dispute once the worker applied the sandbox's webhook. */
const disputedPayment = () =>
  harness.run(Effect.gen(function*() {
    const shop = yield* merchant()
    const payment = yield* shop.client.payments.create({
      headers: { "idempotency-key": newKey() },
      payload: paymentWith("tok_createDispute", { amount: 4500 })
    })
    yield* runJobs("sandbox-notifications", "apply-provider-events")
    const disputes = yield* shop.client.disputes.list({ urlParams: { payment_id: payment.id } })
    return { ...shop, payment, dispute: disputes.data[0]! }
  }))

describe("the dashboard: disputes", () => {
  it("lists a new dispute, saves evidence with a file, submits it, and shows it on its payment", async () => {
    const shop = await disputedPayment()
    expect(shop.dispute.status).toBe("needs_response")

    const page = await harness.open()
    await signIn(page, shop.secret)
    await page.getByRole("link", { name: "Disputes", exact: true }).click()
    await expect.poll(() => column(page, "disputes-table", "Dispute"), POLL).toEqual([shop.dispute.id])
    await expect.poll(() => column(page, "disputes-table", "Payment"), POLL).toEqual([shop.payment.id])
    await expect.poll(() => column(page, "disputes-table", "Amount"), POLL).toEqual(["45.00 EUR"])
    await expect.poll(() => column(page, "disputes-table", "Reason"), POLL).toEqual(["fraudulent"])
    await expect.poll(() => column(page, "disputes-table", "Status"), POLL).toEqual(["needs response"])
    await screenshot(page, "disputes")

    await page.getByRole("link", { name: shop.dispute.id }).click()
    await expect.poll(() => page.locator("#dispute-id").textContent(), POLL).toBe(shop.dispute.id)
    await expect.poll(() => page.locator("#dispute-status").textContent(), POLL).toBe("needs response")
    await page.locator("#evidence-product_description").fill("Merino wool socks, 3 pairs")
    await page.locator("#evidence-shipping_carrier").fill("DHL")
    await page.locator("#evidence-uncategorized_text").fill("winning_evidence")
    await page.locator("#evidence-file").setInputFiles({
      name: "receipt.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n")
    })
    await page.getByRole("button", { name: "Save evidence" }).click()
    await expect.poll(() => page.locator("#dispute-notice").textContent(), POLL).toContain("Evidence saved")
    // The form, drawn again from the saved dispute, holds what was typed and names the uploaded file.
    await expect.poll(() => page.locator("#evidence-uncategorized_text").inputValue(), POLL).toBe("winning_evidence")
    await expect.poll(() => page.locator("#evidence-saved-file").textContent(), POLL).toMatch(/file_/)
    const saved = await harness.run(shop.client.disputes.retrieve({ path: { id: shop.dispute.id } }))
    expect(saved.evidence).toMatchObject({ shipping_carrier: "DHL", uncategorized_text: "winning_evidence" })
    const fileId = saved.evidence.files?.uncategorized_file
    expect(fileId).toMatch(/^file_/)
    const file = await harness.run(shop.client.files.retrieve({ path: { id: fileId! } }))
    expect([file.type, file.filename]).toEqual(["pdf", "receipt.pdf"])
    await screenshot(page, "dispute-evidence-saved")

    await page.getByRole("button", { name: "Submit" }).click()
    await expect.poll(() => page.locator("#dispute-status").textContent(), POLL).toBe("under review")
    await expect.poll(() => page.locator("#evidence-submission").textContent(), POLL).toBe("submitted")
    // Submitted: nothing left to answer on the page.
    expect(await page.locator("#evidence-form").count()).toBe(0)
    await screenshot(page, "dispute-submitted")

    await page.locator("#dispute-payment").getByRole("link", { name: shop.payment.id }).click()
    await expect.poll(() => page.locator("#payment-id").textContent(), POLL).toBe(shop.payment.id)
    await expect.poll(() => column(page, "payment-disputes-table", "Dispute"), POLL).toEqual([shop.dispute.id])
    await expect.poll(() => column(page, "payment-disputes-table", "Status"), POLL).toEqual(["under review"])
    await page.locator("#payment-disputes-table").getByRole("link", { name: shop.dispute.id }).click()
    await expect.poll(() => page.locator("#dispute-id").textContent(), POLL).toBe(shop.dispute.id)
    expect(problemsOf(page)).toEqual([])
  })

  it("says why a file is refused and saves nothing, then accepts the dispute only once confirmed", async () => {
    const shop = await disputedPayment()
    const page = await harness.open()
    await signIn(page, shop.secret)
    await page.goto(`${harness.baseUrl}/dashboard#/disputes/${shop.dispute.id}`)
    await expect.poll(() => page.locator("#dispute-status").textContent(), POLL).toBe("needs response")

    // A web page named .pdf is judged by its content: the API's refusal, in words, and no evidence saved.
    await page.locator("#evidence-uncategorized_text").fill("losing_evidence")
    await page.locator("#evidence-file").setInputFiles({ name: "invoice.pdf", mimeType: "application/pdf", buffer: Buffer.from("<html>Invoice</html>") })
    await page.getByRole("button", { name: "Save evidence" }).click()
    await expect.poll(() => page.locator("#action-result [role=alert]").textContent(), POLL).toBe(
      "The file is not a PDF, PNG or JPEG (judged by its content, not its name)."
    )
    const unchanged = await harness.run(shop.client.disputes.retrieve({ path: { id: shop.dispute.id } }))
    expect(unchanged.evidence.uncategorized_text).toBeUndefined()

    // Cancelling the confirmation changes nothing; confirming accepts it, and nothing is left to answer.
    await page.getByRole("button", { name: "Accept…" }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click()
    expect((await harness.run(shop.client.disputes.retrieve({ path: { id: shop.dispute.id } }))).status).toBe("needs_response")
    await page.getByRole("button", { name: "Accept…" }).click()
    await page.getByRole("dialog").locator("[data-confirm]").click()
    await expect.poll(() => page.locator("#dispute-status").textContent(), POLL).toBe("accepted")
    expect(await page.locator("#accept-dispute").count()).toBe(0)
    expect((await harness.run(shop.client.disputes.retrieve({ path: { id: shop.dispute.id } }))).status).toBe("accepted")
    await screenshot(page, "dispute-accepted")
    expect(problemsOf(page)).toEqual([])
  })
})
