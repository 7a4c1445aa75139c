import { describe, expect, it } from "@effect/vitest"
import { checkoutComSignature, checkoutComToken, fakeCheckoutCom, multipartUploads, OpenApiContract } from "@orchestrator/testing"
import { Effect, Schema } from "effect"
import { makeCheckoutComConnector } from "../src/checkoutcom/Connector.js"
import { CheckoutComSettings } from "../src/checkoutcom/Settings.js"
import { authorizeWith, evidenceFile, fetchHttp, pspContext } from "./pspFixtures.js"

const SIGNATURE_KEY = "whsk_checkout_signature_key_for_tests"
/**
 * Checkout.com's `Dispute` as its NAS document declares it. The document's schema does not compile as a
 * whole (a property typed `strings`), so the fake's fields are held against its properties and enums.
 */
const DISPUTE = (OpenApiContract.checkoutCom().schemaAt("components/schemas/Dispute") as { properties: Record<string, any> }).properties
const undocumented = (dispute: Record<string, unknown>) =>
  Object.entries(dispute).filter(([key, value]) => DISPUTE[key] === undefined || (DISPUTE[key].enum !== undefined && !DISPUTE[key].enum.includes(value)))

const contract = OpenApiContract.checkoutCom()

/** The connector and a paid payment on a fresh fake. */
const paidOnFake = Effect.gen(function*() {
  const fake = yield* fakeCheckoutCom
  const connector = yield* Effect.map(fetchHttp, (http) =>
    makeCheckoutComConnector(
      http,
      pspContext({ type: "checkout_com", baseUrl: fake.url, credentials: { secret_key: "sk_sbox_m73dzbpy7cf3gfd46xr4yj5xo4e" }, webhookSecret: SIGNATURE_KEY }),
      Schema.decodeUnknownSync(CheckoutComSettings)({ processing_channel_id: fake.processingChannelId })
    ))
  const paid = yield* connector.authorize(authorizeWith(checkoutComToken("approved")))
  if (paid._tag !== "Authorized") return yield* Effect.dieMessage(paid._tag)
  return { fake, connector, paid }
})

describe("Checkout.com's dispute answers on the wire", () => {
  it.scoped("evidence PUT then submitted by POST, acceptance by POST, checked against the NAS document; a refusal in our words", () =>
    Effect.gen(function*() {
      const { connector, fake, paid } = yield* paidOnFake
      fake.disputeEvent("dispute_evidence_required", paid.pspPaymentId, "dsp_evidence000000000000000000", "2026-11-22T08:00:00Z")
      const disputes = connector.disputes!
      const evidence = { product_description: "Wool socks", shipping_carrier: "DHL", shipping_tracking_number: "JD0146", customer_email: "jane@example.com" }
      const submitted = yield* disputes.submitEvidence({
        pspDisputeId: "dsp_evidence000000000000000000",
        pspPaymentId: paid.pspPaymentId,
        reason: "fraudulent",
        evidence
      })
      expect(submitted._tag).toBe("Done")
      const [put, post] = fake.exchanges.slice(-2)
      expect([put!.method, put!.url, post!.method, post!.url]).toEqual([
        "PUT",
        "/disputes/dsp_evidence000000000000000000/evidence",
        "POST",
        "/disputes/dsp_evidence000000000000000000/evidence"
      ])
      expect(JSON.parse(put!.body)).toEqual({
        proof_of_delivery_or_service_text: "Wool socks\nCarrier: DHL\nTracking: JD0146",
        additional_evidence_text: "Email: jane@example.com"
      })
      expect(fake.disputes.get("dsp_evidence000000000000000000")!.status).toBe("evidence_under_review")
      // Under review already: Checkout.com refuses; the answer is ours, its words kept apart.
      const again = yield* disputes.submitEvidence({
        pspDisputeId: "dsp_evidence000000000000000000",
        pspPaymentId: paid.pspPaymentId,
        reason: "fraudulent",
        evidence
      })
      expect(again).toMatchObject({ _tag: "Refused", code: "invalid_request" })

      fake.disputeEvent("dispute_evidence_required", paid.pspPaymentId, "dsp_accepted000000000000000000", "2026-11-22T08:00:00Z")
      expect((yield* disputes.accept({ pspDisputeId: "dsp_accepted000000000000000000", pspPaymentId: paid.pspPaymentId }))._tag).toBe("Done")
      expect(fake.disputes.get("dsp_accepted000000000000000000")!.status).toBe("accepted")
      for (const exchange of fake.exchanges.filter((each) => each.url.startsWith("/disputes/"))) {
        expect([exchange.method, exchange.url, contract.checkRequest(exchange)]).toEqual([exchange.method, exchange.url, []])
        expect([exchange.url, exchange.status, contract.checkResponse(exchange)]).toEqual([exchange.url, exchange.status, []])
      }
    }))
})

describe("Checkout.com's dispute evidence files", () => {
  const pdf = new Uint8Array([...new TextEncoder().encode("%PDF-1.4\n%"), 0xe2, 0xe3, 0xcf, 0xd3, ...new TextEncoder().encode("\n%%EOF\n")])
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff])

  it.scoped("each file uploaded by POST /files (multipart, dispute_evidence), then named in its *_file field of the evidence PUT", () =>
    Effect.gen(function*() {
      const { connector, fake, paid } = yield* paidOnFake
      fake.disputeEvent("dispute_evidence_required", paid.pspPaymentId, "dsp_files000000000000000000000", "2026-11-22T08:00:00Z")
      const receipt = evidenceFile("receipt", "file_ours1", "pdf", pdf, "receipt.pdf")
      const refund = evidenceFile("refund_policy", "file_ours2", "png", png, null)
      const cancellation = evidenceFile("cancellation_policy", "file_ours3", "pdf", pdf, "terms.pdf")
      const submitted = yield* connector.disputes!.submitEvidence({
        pspDisputeId: "dsp_files000000000000000000000",
        pspPaymentId: paid.pspPaymentId,
        reason: "fraudulent",
        evidence: { product_description: "Wool socks" },
        files: [receipt, refund, cancellation]
      })
      expect(submitted._tag).toBe("Done")
      const uploads = fake.exchanges.filter((exchange) => exchange.url === "/files")
      expect(uploads.map((upload) => [upload.method, upload.status])).toEqual([["POST", 200], ["POST", 200], ["POST", 200]])
      const sent = uploads.map((upload) => multipartUploads(upload.bytes!, upload.headers["content-type"])!)
      expect(sent.map((parts) => parts.map((part) => [part.name, part.filename, part.type]))).toEqual([
        [["purpose", undefined, undefined], ["file", "receipt.pdf", "application/pdf"]],
        [["purpose", undefined, undefined], ["file", "file_ours2.png", "image/png"]],
        [["purpose", undefined, undefined], ["file", "terms.pdf", "application/pdf"]]
      ])
      expect(sent.map((parts) => parts[1]!.bytes)).toEqual([pdf, png, pdf])
      const ids = uploads.map((upload) => JSON.parse(upload.responseBody).id)
      const put = fake.exchanges.find((exchange) => exchange.method === "PUT")!
      expect(JSON.parse(put.body)).toEqual({
        proof_of_delivery_or_service_text: "Wool socks",
        invoice_or_receipt_file: ids[0],
        refund_or_cancellation_policy_file: ids[1],
        additional_evidence_file: ids[2]
      })
      expect(fake.disputes.get("dsp_files000000000000000000000")!.status).toBe("evidence_under_review")
      for (const exchange of fake.exchanges.filter((each) => each.url.startsWith("/disputes/") || each.url === "/files")) {
        // The document describes the file part as `path` (its curl example: `file=@/path/receipt.png`); Checkout.com reads `file`.
        const problems = contract.checkRequest(exchange).filter((problem) => !(exchange.url === "/files" && problem.includes("\"missingProperty\":\"path\"")))
        expect([exchange.method, exchange.url, problems]).toEqual([exchange.method, exchange.url, []])
        expect([exchange.url, exchange.status, contract.checkResponse(exchange)]).toEqual([exchange.url, exchange.status, []])
      }
    }))

  it.scoped("an upload Checkout.com refuses stops the submission, in our words; more files than its fields is refused before anything is sent", () =>
    Effect.gen(function*() {
      const { connector, fake, paid } = yield* paidOnFake
      fake.disputeEvent("dispute_evidence_required", paid.pspPaymentId, "dsp_refused0000000000000000000", "2026-11-22T08:00:00Z")
      const submit = (files: ReadonlyArray<ReturnType<typeof evidenceFile>>) =>
        connector.disputes!.submitEvidence({
          pspDisputeId: "dsp_refused0000000000000000000",
          pspPaymentId: paid.pspPaymentId,
          reason: "fraudulent",
          evidence: {},
          files
        })
      fake.injectFault({ status: 422, error_codes: ["file_invalid"] })
      const refused = yield* submit([evidenceFile("receipt", "file_ours4", "pdf", pdf, "receipt.pdf")])
      expect(refused).toMatchObject({ _tag: "Refused", code: "evidence_file_refused" })
      expect(refused._tag === "Refused" && refused.message).toContain("file_ours4 (given as receipt)")
      expect(fake.exchanges.some((exchange) => exchange.url.startsWith("/disputes/"))).toBe(false)

      const before = fake.exchanges.length
      const crowded = yield* submit([
        evidenceFile("refund_policy", "file_ours5", "pdf", pdf, null),
        evidenceFile("cancellation_policy", "file_ours6", "pdf", pdf, null),
        evidenceFile("uncategorized_file", "file_ours7", "pdf", pdf, null)
      ])
      expect(crowded).toMatchObject({ _tag: "Refused", code: "evidence_file_refused" })
      expect(fake.exchanges.length).toBe(before)
      expect(fake.disputes.get("dsp_refused0000000000000000000")!.status).toBe("evidence_required")
    }))
})

describe("Checkout.com's dispute read", () => {
  it.scoped("GET /disputes/{id} is read as a fact dated by its last_update; an unknown dispute is nothing", () =>
    Effect.gen(function*() {
      const { connector, fake, paid } = yield* paidOnFake
      fake.disputeEvent("dispute_evidence_required", paid.pspPaymentId, "dsp_read0000000000000000000000", "2026-11-22T08:00:00Z")
      const read = (id: string) => connector.disputes!.read!({ pspDisputeId: id, pspPaymentId: paid.pspPaymentId, atMillis: 0 })
      expect(yield* read("dsp_read0000000000000000000000")).toEqual({
        pspDisputeId: "dsp_read0000000000000000000000",
        reference: null,
        pspPaymentId: paid.pspPaymentId,
        status: "needs_response",
        stage: "chargeback",
        amount: 1050,
        currency: "EUR",
        reason: "product_not_received",
        reasonCode: "13.1",
        evidenceDueByMillis: Date.parse("2026-12-20T00:00:00Z"),
        fee: null,
        occurredAtMillis: Date.parse("2026-11-22T08:00:00Z")
      })
      const shown = fake.exchanges.at(-1)!
      // This operation's `dispute_id` pattern is escaped twice in the document (a backslash, then 26 w's): no id can match it.
      const problems = contract.checkRequest(shown).filter((problem) => !problem.includes("\\\\w{26}"))
      expect([shown.method, shown.url, problems]).toEqual(["GET", "/disputes/dsp_read0000000000000000000000", []])
      // The answer's fields are those of Checkout.com's `Dispute` (its schema does not compile whole).
      const { payment: _, ...dispute } = JSON.parse(shown.responseBody)
      expect(undocumented(dispute)).toEqual([])
      fake.disputeEvent("dispute_arbitration_won", paid.pspPaymentId, "dsp_read0000000000000000000000", "2026-12-22T08:00:00Z")
      expect(yield* read("dsp_read0000000000000000000000")).toMatchObject({ status: "won", stage: "arbitration" })
      expect(yield* read("dsp_unknown0000000000000000000")).toBeUndefined()
    }))
})

describe("Checkout.com's dispute webhooks", () => {
  it.scoped("read as dispute facts, dated by created_on, each type's status", () =>
    Effect.gen(function*() {
      const fake = yield* fakeCheckoutCom
      const connector = yield* Effect.map(fetchHttp, (http) =>
        makeCheckoutComConnector(
          http,
          pspContext({
            type: "checkout_com",
            baseUrl: fake.url,
            credentials: { secret_key: "sk_sbox_m73dzbpy7cf3gfd46xr4yj5xo4e" },
            webhookSecret: SIGNATURE_KEY
          }),
          Schema.decodeUnknownSync(CheckoutComSettings)({ processing_channel_id: fake.processingChannelId })
        ))
      const paid = yield* connector.authorize(authorizeWith(checkoutComToken("approved")))
      if (paid._tag !== "Authorized") return expect.fail(paid._tag)
      const read = (type: string, createdOn: string) => {
        const body = fake.disputeEvent(type, paid.pspPaymentId, "dsp_rbhwd2qrg13uhrp2newf000000", createdOn)
        const { payment_id: _, payment_reference: __, ...dispute } = JSON.parse(body).data
        // The dispute's own fields are those of Checkout.com's `Dispute`.
        expect(undocumented(dispute)).toEqual([])
        return Effect.map(
          connector.verifyWebhook({ body: new TextEncoder().encode(body), headers: { "cko-signature": checkoutComSignature(SIGNATURE_KEY, body) } }),
          (events) => events.map((event) => event._tag === "DisputeUpdated" ? event.fact : event)
        )
      }
      const [received] = yield* read("dispute_evidence_required", "2026-11-22T08:00:00Z")
      expect(received).toMatchObject({
        pspDisputeId: "dsp_rbhwd2qrg13uhrp2newf000000",
        pspPaymentId: paid.pspPaymentId,
        status: "needs_response",
        stage: "chargeback",
        amount: 1050,
        currency: "EUR",
        reason: "product_not_received",
        reasonCode: "13.1",
        evidenceDueByMillis: Date.parse("2026-12-20T00:00:00Z"),
        occurredAtMillis: Date.parse("2026-11-22T08:00:00Z")
      })
      const cases = [
        ["dispute_received", "needs_response", "chargeback"],
        ["dispute_evidence_submitted", "under_review", "chargeback"],
        ["dispute_won", "won", "chargeback"],
        ["dispute_lost", "lost", "chargeback"],
        ["dispute_expired", "expired", "chargeback"],
        ["dispute_canceled", "won", "chargeback"],
        ["dispute_resolved", "accepted", "chargeback"],
        ["dispute_arbitration_won", "won", "arbitration"]
      ] as const
      for (const [type, status, stage] of cases) {
        const [fact] = yield* read(type, "2026-11-23T08:00:00Z")
        expect([type, fact]).toMatchObject([type, { status, stage }])
      }
      expect(yield* read("dispute_unknown_news", "2026-11-23T08:00:00Z")).toEqual([])
    }))
})
