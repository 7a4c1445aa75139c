import { describe, expect, it } from "@effect/vitest"
import { type FakePayPal, fakePayPal, multipartParts, multipartUploads } from "@orchestrator/testing"
import { Effect } from "effect"
import { approveAt, disputeErrors, evidenceErrors, expectPayPalContract, paypal, paypalPayment, WEBHOOK_ID, webhookEventErrors } from "./paypalFixtures.js"
import { evidenceFile } from "./pspFixtures.js"

const incoming = (body: string, headers: Record<string, string>) => ({ body: new TextEncoder().encode(body), headers })

/** A captured PayPal payment on the fake, and the connector that made it. */
const captured = Effect.gen(function*() {
  const fake = yield* fakePayPal
  const connector = yield* paypal(fake)
  const request = paypalPayment()
  const created = yield* connector.authorize(request)
  if (created._tag !== "ActionRequired") return yield* Effect.dieMessage(created._tag)
  yield* approveAt(created.redirectUrl)
  yield* connector.syncPayment({ reference: request.reference, pspPaymentId: created.pspPaymentId })
  return { fake, connector, reference: request.reference, orderId: created.pspPaymentId }
})

/** The fact a CUSTOMER.DISPUTE.* delivery of the dispute as it is now is read as, its resource held against the document. */
const readDelivery = (fake: FakePayPal, connector: Effect.Effect.Success<ReturnType<typeof paypal>>, type: string, disputeId: string) =>
  Effect.gen(function*() {
    const resource = fake.disputeResource(disputeId)
    expect(disputeErrors(resource)).toEqual([])
    const delivery = fake.webhook(WEBHOOK_ID, type, resource)
    expect(webhookEventErrors(delivery.body)).toEqual([])
    const events = yield* connector.verifyWebhook(incoming(delivery.body, delivery.headers))
    return events.map((event) => event._tag === "DisputeUpdated" ? event.fact : event)
  })

describe("PayPal's customer disputes against a wire-level fake", () => {
  it.scoped("CUSTOMER.DISPUTE.* webhooks are read as facts: reason, stage, status, outcome, due date and amount, dated by update_time", () =>
    Effect.gen(function*() {
      const { connector, fake, reference } = yield* captured
      const opened = fake.openDispute([...fake.orders.keys()][0]!, {
        reason: "UNAUTHORISED",
        amount: { currency_code: "EUR", value: "7.25" },
        at: "2026-11-20T08:00:00Z",
        dueDate: "2026-11-30T08:00:00Z"
      })
      const [fact] = yield* readDelivery(fake, connector, "CUSTOMER.DISPUTE.CREATED", opened.id)
      expect(fact).toEqual({
        pspDisputeId: opened.id,
        reference,
        pspPaymentId: null,
        status: "needs_response",
        stage: "chargeback",
        amount: 725,
        currency: "EUR",
        reason: "fraudulent",
        reasonCode: "UNAUTHORISED",
        evidenceDueByMillis: Date.parse("2026-11-30T08:00:00Z"),
        fee: null,
        occurredAtMillis: Date.parse("2026-11-20T08:00:00Z")
      })
      const cases = [
        [{ status: "UNDER_REVIEW", stage: "CHARGEBACK" }, { status: "under_review", stage: "chargeback" }],
        [{ status: "WAITING_FOR_BUYER_RESPONSE", stage: "INQUIRY" }, { status: "under_review", stage: "inquiry" }],
        [{ status: "WAITING_FOR_SELLER_RESPONSE", stage: "PRE_ARBITRATION" }, { status: "needs_response", stage: "pre_arbitration" }],
        [{ status: "RESOLVED", stage: "ARBITRATION", outcome: "RESOLVED_SELLER_FAVOUR" }, { status: "won", stage: "arbitration" }],
        [{ status: "RESOLVED", stage: "CHARGEBACK", outcome: "RESOLVED_BUYER_FAVOUR" }, { status: "lost", stage: "chargeback" }],
        [{ status: "RESOLVED", stage: "CHARGEBACK", outcome: "ACCEPTED" }, { status: "accepted", stage: "chargeback" }],
        [{ status: "RESOLVED", stage: "INQUIRY", outcome: "CANCELED_BY_BUYER" }, { status: "warning_closed", stage: "inquiry" }]
      ] as const
      for (const [changes, expected] of cases) {
        fake.moveDispute(opened.id, { ...changes, at: "2026-11-21T08:00:00Z" })
        const [moved] = yield* readDelivery(
          fake,
          connector,
          changes.status === "RESOLVED" ? "CUSTOMER.DISPUTE.RESOLVED" : "CUSTOMER.DISPUTE.UPDATED",
          opened.id
        )
        expect([changes, moved]).toMatchObject([changes, { ...expected, occurredAtMillis: Date.parse("2026-11-21T08:00:00Z") }])
      }
      // A status PayPal does not document for a merchant is not guessed at.
      fake.moveDispute(opened.id, { status: "OTHER" })
      expect(yield* readDelivery(fake, connector, "CUSTOMER.DISPUTE.UPDATED", opened.id)).toEqual([])
      expectPayPalContract(fake)
    }))

  it.scoped("evidence by provide-evidence and acceptance by accept-claim, multipart as the document declares; a refusal in our words", () =>
    Effect.gen(function*() {
      const { connector, fake, orderId } = yield* captured
      const disputes = connector.disputes!
      const opened = fake.openDispute(orderId)
      const evidence = {
        product_description: "Wool socks, size 42",
        shipping_carrier: "DHL",
        shipping_tracking_number: "JD014600006281",
        shipping_date: "2026-11-02",
        refund_policy: "30 days",
        customer_email: "jane@example.com"
      }
      expect(yield* disputes.submitEvidence({ pspDisputeId: opened.id, pspPaymentId: orderId, reason: "product_not_received", evidence }))
        .toEqual({ _tag: "Done" })
      const sent = fake.exchanges.at(-1)!
      expect([sent.method, sent.url, sent.headers["content-type"]]).toEqual([
        "POST",
        `/v1/customer/disputes/${opened.id}/provide-evidence`,
        expect.stringMatching(/^multipart\/form-data; boundary=/)
      ])
      const [input] = multipartParts(sent.body, sent.headers["content-type"]!)!
      expect([input!.name, input!.headers["content-type"]]).toEqual(["input", "application/json"])
      const evidences = JSON.parse(input!.content).evidences
      expect(evidences).toEqual([
        {
          evidence_type: "PROOF_OF_FULFILLMENT",
          evidence_info: { tracking_info: [{ carrier_name: "DHL", tracking_number: "JD014600006281" }] },
          notes: "Shipped: 2026-11-02"
        },
        { evidence_type: "ITEM_DESCRIPTION", notes: "Wool socks, size 42" },
        { evidence_type: "RETURN_POLICY", notes: "30 days" },
        { evidence_type: "OTHER", notes: "Email: jane@example.com" }
      ])
      for (const each of evidences) expect(evidenceErrors(each)).toEqual([])
      expect(fake.disputes.get(opened.id)!.status).toBe("UNDER_REVIEW")

      // Under review already: PayPal refuses; the answer is ours, its words kept apart.
      const again = yield* disputes.submitEvidence({ pspDisputeId: opened.id, pspPaymentId: orderId, reason: "product_not_received", evidence: {} })
      expect(again).toMatchObject({ _tag: "Refused", code: "invalid_request", message: "The payment provider refused the request." })
      // Past the due date, too.
      const late = fake.openDispute(orderId, { dueDate: "2026-01-01T00:00:00Z", at: "2025-12-20T00:00:00Z" })
      expect(yield* disputes.submitEvidence({ pspDisputeId: late.id, pspPaymentId: orderId, reason: "general", evidence: { receipt: "#1" } }))
        .toMatchObject({ _tag: "Refused", providerMessage: expect.stringContaining("RESPONSE_DUE_DATE_PASSED") })
      expect(yield* disputes.accept({ pspDisputeId: "PP-D-UNKNOWN", pspPaymentId: orderId })).toMatchObject({ _tag: "Refused", code: "dispute_not_found" })

      // Read back by GET /v1/customer/disputes/{id}: what the webhook would say, dated by PayPal's update_time.
      const shown = yield* disputes.read!({ pspDisputeId: opened.id, pspPaymentId: orderId, atMillis: 0 })
      expect(shown).toMatchObject({ pspDisputeId: opened.id, status: "under_review", occurredAtMillis: Date.parse(fake.disputes.get(opened.id)!.updateTime) })
      expect(yield* disputes.read!({ pspDisputeId: "PP-D-UNKNOWN", pspPaymentId: orderId, atMillis: 0 })).toBeUndefined()

      const accepted = fake.openDispute(orderId)
      expect(yield* disputes.accept({ pspDisputeId: accepted.id, pspPaymentId: orderId })).toEqual({ _tag: "Done" })
      expect(fake.disputes.get(accepted.id)).toMatchObject({ status: "RESOLVED", outcome: "ACCEPTED", acceptance: { note: expect.any(String) } })
      expectPayPalContract(fake)
    }))

  /** A small PDF with the binary comment line real ones have: bytes no text encoding keeps. */
  const pdf = new Uint8Array([...new TextEncoder().encode("%PDF-1.4\n%"), 0xe2, 0xe3, 0xcf, 0xd3, ...new TextEncoder().encode("\n%%EOF\n")])
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff])

  it.scoped("files go beside the input as evidence-file parts, byte for byte, each named in the documents of the evidence of its kind", () =>
    Effect.gen(function*() {
      const { connector, fake, orderId } = yield* captured
      const opened = fake.openDispute(orderId)
      const files = [
        evidenceFile("receipt", "file_ours1", "pdf", pdf, "receipt (1).pdf"),
        evidenceFile("shipping_documentation", "file_ours2", "png", png, null),
        evidenceFile("refund_policy", "file_ours3", "pdf", pdf, "terms.pdf")
      ]
      const submitted = yield* connector.disputes!.submitEvidence({
        pspDisputeId: opened.id,
        pspPaymentId: orderId,
        reason: "product_not_received",
        evidence: { receipt: "Order #1", shipping_tracking_number: "JD014600006281", shipping_carrier: "DHL" },
        files
      })
      expect(submitted).toEqual({ _tag: "Done" })
      const sent = fake.exchanges.at(-1)!
      const parts = multipartUploads(sent.bytes!, sent.headers["content-type"])!
      expect(parts.map((part) => [part.name, part.filename, part.type])).toEqual([
        ["input", undefined, "application/json"],
        ["evidence-file", "file_ours1.pdf", "application/pdf"],
        ["evidence-file", "file_ours2.png", "image/png"],
        ["evidence-file", "file_ours3.pdf", "application/pdf"]
      ])
      expect(parts.slice(1).map((part) => part.bytes)).toEqual([pdf, png, pdf])
      const evidences = JSON.parse(new TextDecoder().decode(parts[0]!.bytes)).evidences
      expect(evidences).toEqual([
        { evidence_type: "PROOF_OF_FULFILLMENT", evidence_info: { tracking_info: [{ carrier_name: "DHL", tracking_number: "JD014600006281" }] } },
        { evidence_type: "PROOF_OF_RECEIPT_COPY", notes: "Order #1", documents: [{ name: "file_ours1.pdf" }] },
        { evidence_type: "ADDITIONAL_PROOF_OF_SHIPMENT", documents: [{ name: "file_ours2.png" }] },
        { evidence_type: "RETURN_POLICY", documents: [{ name: "file_ours3.pdf" }] }
      ])
      for (const each of evidences) expect(evidenceErrors(each)).toEqual([])
      expect(fake.disputes.get(opened.id)!.files.map((file) => [file.filename, file.bytes])).toEqual([
        ["file_ours1.pdf", pdf],
        ["file_ours2.png", png],
        ["file_ours3.pdf", pdf]
      ])
      expectPayPalContract(fake)
    }))

  it.scoped("PayPal refusing a file is evidence_file_refused in our words, naming it; another refusal keeps its own code", () =>
    Effect.gen(function*() {
      const { connector, fake, orderId } = yield* captured
      const opened = fake.openDispute(orderId)
      const submit = (files: ReadonlyArray<ReturnType<typeof evidenceFile>>) =>
        connector.disputes!.submitEvidence({ pspDisputeId: opened.id, pspPaymentId: orderId, reason: "general", evidence: {}, files })
      fake.injectFault({ status: 422, issue: "INVALID_EVIDENCE_FILE" })
      const refused = yield* submit([evidenceFile("uncategorized_file", "file_ours4", "pdf", pdf, null)])
      expect(refused).toMatchObject({ _tag: "Refused", code: "evidence_file_refused", providerMessage: expect.stringContaining("INVALID_EVIDENCE_FILE") })
      expect(refused._tag === "Refused" && refused.message).toContain("file_ours4 (given as uncategorized_file)")
      expect(refused._tag === "Refused" && refused.message).not.toContain("INVALID_EVIDENCE_FILE")
      const two = [evidenceFile("receipt", "file_ours5", "pdf", pdf, null), evidenceFile("receipt", "file_ours6", "png", png, null)]
      fake.injectFault({ status: 422, issue: "INVALID_EVIDENCE_FILE" })
      const either = yield* submit(two)
      expect(either).toMatchObject({ _tag: "Refused", code: "evidence_file_refused" })
      expect(either._tag === "Refused" && either.message).toContain("file_ours5 (given as receipt), file_ours6 (given as receipt)")
      expect(fake.disputes.get(opened.id)).toMatchObject({ status: "WAITING_FOR_SELLER_RESPONSE", evidences: [], files: [] })

      // Past the due date, the refusal is not the file's.
      const late = fake.openDispute(orderId, { dueDate: "2026-01-01T00:00:00Z", at: "2025-12-20T00:00:00Z" })
      const lateAnswer = yield* connector.disputes!.submitEvidence({
        pspDisputeId: late.id,
        pspPaymentId: orderId,
        reason: "general",
        evidence: {},
        files: two
      })
      expect(lateAnswer).toMatchObject({ _tag: "Refused", code: "invalid_request", providerMessage: expect.stringContaining("RESPONSE_DUE_DATE_PASSED") })
    }))
})
