import { describe, expect, it } from "@effect/vitest"
import { decodeFormBody, type FakeStripe, fakeStripe, multipartUploads, OpenApiContract } from "@orchestrator/testing"
import { Effect, Schema, TestClock } from "effect"
import { makeStripeConnector } from "../src/stripe/StripeConnector.js"
import { StripeSettings } from "../src/stripe/StripeSettings.js"
import { authorizeWith, evidenceFile, fetchHttp, pspContext } from "./pspFixtures.js"

const WEBHOOK_SECRET = "whsec_stripe_test_secret"

const stripe = (fake: FakeStripe) =>
  Effect.map(fetchHttp, (http) =>
    makeStripeConnector(
      http,
      pspContext({ type: "stripe", baseUrl: fake.url, credentials: { secret_key: "sk_test_51FakeKeyForTests" }, webhookSecret: WEBHOOK_SECRET }),
      Schema.decodeUnknownSync(StripeSettings)({})
    ))

const contract = OpenApiContract.stripe()
const expectContract = (fake: FakeStripe) => {
  for (const exchange of fake.exchanges) {
    expect([exchange.method, exchange.url, contract.checkRequest(exchange)]).toEqual([exchange.method, exchange.url, []])
    expect([exchange.url, exchange.status, contract.checkResponse(exchange)]).toEqual([exchange.url, exchange.status, []])
  }
}

/** A paid PaymentIntent its customer disputes, and the connector. */
const disputed = (options?: { readonly inquiry?: boolean }) =>
  Effect.gen(function*() {
    const fake = yield* fakeStripe
    const connector = yield* stripe(fake)
    const paid = yield* connector.authorize(authorizeWith("pm_card_visa", { amount: 2500 }))
    if (paid._tag !== "Authorized") return yield* Effect.dieMessage(paid._tag)
    const dispute = fake.openDispute(paid.pspPaymentId, options)
    const deliver = (type: string, at: number) => {
      const event = fake.signedEvent(WEBHOOK_SECRET, type, fake.disputeObject(dispute.id), at)
      return connector.verifyWebhook({ body: new TextEncoder().encode(event.body), headers: { "stripe-signature": event.signature } })
    }
    return { fake, connector, paid, dispute, deliver }
  })

describe("Stripe disputes against a wire-level fake of Stripe", () => {
  it.scoped("reads charge.dispute.* events as dispute facts dated by the event", () =>
    Effect.gen(function*() {
      const { deliver, dispute, paid } = yield* disputed()
      const now = Math.floor(Date.now() / 1000)
      yield* TestClock.setTime(now * 1000)
      const [event] = yield* deliver("charge.dispute.created", now)
      expect(event).toMatchObject({
        _tag: "DisputeUpdated",
        fact: {
          pspDisputeId: dispute.id,
          pspPaymentId: paid.pspPaymentId,
          status: "needs_response",
          stage: "chargeback",
          amount: 2500,
          currency: "EUR",
          reason: "fraudulent",
          reasonCode: "fraudulent",
          evidenceDueByMillis: dispute.due_by * 1000,
          fee: { amount: 1500, currency: "EUR" },
          occurredAtMillis: now * 1000
        }
      })
      for (const type of ["charge.dispute.updated", "charge.dispute.closed", "charge.dispute.funds_withdrawn", "charge.dispute.funds_reinstated"]) {
        expect((yield* deliver(type, now)).map((each) => each._tag)).toEqual(["DisputeUpdated"])
      }
      const inquiry = yield* disputed({ inquiry: true })
      const [asked] = yield* inquiry.deliver("charge.dispute.created", now)
      expect(asked).toMatchObject({ fact: { status: "needs_response", stage: "inquiry" } })
    }))

  it.scoped("submits the evidence in Stripe's fields with submit=true, and closes a dispute to accept it", () =>
    Effect.gen(function*() {
      const { connector, dispute, fake, paid } = yield* disputed()
      const disputes = connector.disputes!
      const outcome = yield* disputes.submitEvidence({
        pspDisputeId: dispute.id,
        pspPaymentId: paid.pspPaymentId,
        reason: "fraudulent",
        evidence: {
          product_description: "Wool socks",
          customer_email: "jane@example.com",
          shipping_carrier: "DHL",
          shipping_tracking_number: "JD0146",
          receipt: "Order 7",
          uncategorized_text: "Delivered"
        }
      })
      expect(outcome._tag).toBe("Done")
      const sent = fake.exchanges.at(-1)!
      expect([sent.method, sent.url]).toEqual(["POST", `/v1/disputes/${dispute.id}`])
      expect(decodeFormBody(sent.body)).toEqual({
        evidence: {
          product_description: "Wool socks",
          customer_email_address: "jane@example.com",
          shipping_carrier: "DHL",
          shipping_tracking_number: "JD0146",
          uncategorized_text: "Receipt:\nOrder 7\n\nDelivered"
        },
        submit: "true"
      })
      expect(fake.disputes.get(dispute.id)!.status).toBe("under_review")

      // Submitted already: Stripe refuses, and the refusal is ours to word.
      const again = yield* disputes.submitEvidence({ pspDisputeId: dispute.id, pspPaymentId: paid.pspPaymentId, reason: "fraudulent", evidence: {} })
      expect(again).toMatchObject({ _tag: "Refused", code: "invalid_request" })
      expect(again._tag === "Refused" && again.message).not.toContain("already")

      const other = yield* disputed()
      expect((yield* other.connector.disputes!.accept({ pspDisputeId: other.dispute.id, pspPaymentId: other.paid.pspPaymentId }))._tag).toBe("Done")
      expect(other.fake.exchanges.at(-1)!.url).toBe(`/v1/disputes/${other.dispute.id}/close`)
      expect(other.fake.disputes.get(other.dispute.id)!.status).toBe("lost")
      expectContract(fake)
      expectContract(other.fake)
    }))

  it.scoped("uploads each evidence file to /v1/files (multipart, dispute_evidence) and names Stripe's file ids in the evidence", () =>
    Effect.gen(function*() {
      const { connector, dispute, fake, paid } = yield* disputed()
      // A PDF's binary comment line: bytes no text encoding keeps, so the upload must carry them as they are.
      const pdf = new Uint8Array([...new TextEncoder().encode("%PDF-1.4\n%"), 0xe2, 0xe3, 0xcf, 0xd3, ...new TextEncoder().encode("\n%%EOF\n")])
      const receipt = evidenceFile("receipt", "file_receipt1", "pdf", pdf, "receipt.pdf")
      const outcome = yield* connector.disputes!.submitEvidence({
        pspDisputeId: dispute.id,
        pspPaymentId: paid.pspPaymentId,
        reason: "fraudulent",
        evidence: { product_description: "Wool socks", files: { receipt: receipt.file.id } },
        files: [receipt]
      })
      expect(outcome._tag).toBe("Done")
      const [upload, submit] = fake.exchanges.slice(-2)
      expect([upload!.method, upload!.url, upload!.headers["content-type"]]).toEqual([
        "POST",
        "/v1/files",
        expect.stringMatching(/^multipart\/form-data; boundary=/)
      ])
      const parts = multipartUploads(upload!.bytes!, upload!.headers["content-type"])!
      expect(parts.map((part) => [part.name, part.filename, part.type])).toEqual([["purpose", undefined, undefined], [
        "file",
        "receipt.pdf",
        "application/pdf"
      ]])
      expect(new TextDecoder().decode(parts[0]!.bytes)).toBe("dispute_evidence")
      expect(parts[1]!.bytes).toEqual(pdf)
      const [stored] = [...fake.files.values()]
      expect(stored!.bytes).toEqual(pdf)
      expect(decodeFormBody(submit!.body)).toEqual({ evidence: { product_description: "Wool socks", receipt: stored!.id }, submit: "true" })
      expect(fake.disputes.get(dispute.id)).toMatchObject({ status: "under_review", evidence: { receipt: stored!.id } })
      expectContract(fake)
    }))

  it.scoped("a file Stripe refuses stops the submission before the evidence is sent, in our words", () =>
    Effect.gen(function*() {
      const { connector, dispute, fake, paid } = yield* disputed()
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
      const other = evidenceFile("uncategorized_file", "file_receipt2", "png", png, null)
      fake.injectFault({ status: 400, type: "invalid_request_error", message: "This file is corrupt and cannot be read." })
      const outcome = yield* connector.disputes!.submitEvidence({
        pspDisputeId: dispute.id,
        pspPaymentId: paid.pspPaymentId,
        reason: "fraudulent",
        evidence: { files: { uncategorized_file: other.file.id } },
        files: [other]
      })
      expect(outcome).toMatchObject({ _tag: "Refused", code: "evidence_file_refused", providerMessage: "This file is corrupt and cannot be read." })
      expect(outcome._tag === "Refused" && outcome.message).toContain("file_receipt2 (given as uncategorized_file)")
      expect(outcome._tag === "Refused" && outcome.message).not.toContain("corrupt")
      expect(fake.exchanges.map((exchange) => exchange.url).at(-1)).toBe("/v1/files")
      expect(fake.disputes.get(dispute.id)!.status).toBe("needs_response")
    }))

  it.scoped("reads a dispute by GET /v1/disputes/{id}, dated by the read (Stripe dates no change); an unknown one is nothing", () =>
    Effect.gen(function*() {
      const { connector, dispute, fake, paid } = yield* disputed()
      const disputes = connector.disputes!
      const read = (id: string) => disputes.read!({ pspDisputeId: id, pspPaymentId: paid.pspPaymentId, atMillis: Date.parse("2026-12-01T00:00:00Z") })
      expect(yield* read(dispute.id)).toMatchObject({
        pspDisputeId: dispute.id,
        pspPaymentId: paid.pspPaymentId,
        status: "needs_response",
        stage: "chargeback",
        amount: 2500,
        occurredAtMillis: Date.parse("2026-12-01T00:00:00Z")
      })
      expect(fake.exchanges.at(-1)).toMatchObject({ method: "GET", url: `/v1/disputes/${dispute.id}` })
      yield* disputes.submitEvidence({ pspDisputeId: dispute.id, pspPaymentId: paid.pspPaymentId, reason: "fraudulent", evidence: {} })
      expect((yield* read(dispute.id))?.status).toBe("under_review")
      expect(yield* read("dp_1NoSuchDispute")).toBeUndefined()
      expectContract(fake)
    }))
})
