import { describe, expect, it } from "@effect/vitest"
import { type FakeAdyen, fakeAdyen, type NotificationFields, OpenApiContract } from "@orchestrator/testing"
import { Effect, Schema } from "effect"
import { makeAdyenConnector } from "../src/adyen/AdyenConnector.js"
import { AdyenSettings } from "../src/adyen/AdyenSettings.js"
import { evidenceFile, fetchHttp, pspContext } from "./pspFixtures.js"

const HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056"
const webhooks = OpenApiContract.adyenWebhooks()

const adyen = (fake: FakeAdyen) =>
  Effect.map(fetchHttp, (http) =>
    makeAdyenConnector(
      http,
      pspContext({
        type: "adyen",
        baseUrl: fake.url,
        credentials: { api_key: "AQEfakeApiKeyForTests", merchant_account: fake.merchantAccount },
        webhookSecret: HMAC_KEY
      }),
      Schema.decodeUnknownSync(AdyenSettings)({ disputes_base_url: fake.disputesUrl })
    ))

/** A dispute notification of payment `PSP_PAYMENT` (our reference `att_1`), as Adyen documents them. */
const disputeItem = (eventCode: string, eventDate: string, additionalData: Record<string, unknown> = {}): NotificationFields => ({
  pspReference: "DISPUTE0001",
  originalReference: "PSP_PAYMENT",
  merchantReference: "att_1",
  amount: { value: 2500, currency: "EUR" },
  eventCode,
  success: true,
  reason: "Merchandise/Services Not Received",
  eventDate,
  additionalData: { chargebackReasonCode: "13.1", chargebackSchemeCode: "visa", ...additionalData }
})

describe("Adyen's dispute notifications", () => {
  it.scoped("read as dispute facts: chargeback, defense, reversal, second chargeback and pre-arbitration, each at its stage", () =>
    Effect.gen(function*() {
      const fake = yield* fakeAdyen
      const connector = yield* adyen(fake)
      const read = (item: NotificationFields) => {
        const body = fake.notification(HMAC_KEY, [item])
        expect(webhooks.checkWebhook(`/${item.eventCode}`, JSON.parse(body))).toEqual([])
        return Effect.map(connector.verifyWebhook({ body: new TextEncoder().encode(body), headers: {} }), (events) =>
          events.map((event) => event._tag === "DisputeUpdated" ? event.fact : event))
      }
      const chargeback = yield* read(disputeItem("CHARGEBACK", "2026-11-22T08:54:45+01:00", {
        disputeStatus: "Unresponded",
        defensePeriodEndsAt: "2026-12-06T08:54:45+01:00"
      }))
      expect(chargeback).toEqual([{
        pspDisputeId: "DISPUTE0001",
        reference: "att_1",
        pspPaymentId: "PSP_PAYMENT",
        status: "needs_response",
        stage: "chargeback",
        amount: 2500,
        currency: "EUR",
        reason: "product_not_received",
        reasonCode: "13.1",
        evidenceDueByMillis: Date.parse("2026-12-06T07:54:45Z"),
        fee: null,
        occurredAtMillis: Date.parse("2026-11-22T07:54:45Z")
      }])
      const cases: ReadonlyArray<readonly [string, Record<string, unknown>, string, string]> = [
        ["NOTIFICATION_OF_CHARGEBACK", {}, "needs_response", "chargeback"],
        ["REQUEST_FOR_INFORMATION", { rfiReasonCode: "RFI" }, "needs_response", "inquiry"],
        ["INFORMATION_SUPPLIED", { disputeStatus: "Responded" }, "under_review", "chargeback"],
        ["DISPUTE_DEFENSE_PERIOD_ENDED", { disputeStatus: "Expired" }, "expired", "chargeback"],
        ["CHARGEBACK_REVERSED", { disputeStatus: "Won" }, "won", "chargeback"],
        ["SECOND_CHARGEBACK", { disputeStatus: "Lost" }, "lost", "chargeback"],
        ["PREARBITRATION_WON", {}, "won", "pre_arbitration"],
        ["PREARBITRATION_LOST", {}, "lost", "pre_arbitration"]
      ]
      for (const [eventCode, data, status, stage] of cases) {
        const [fact] = yield* read(disputeItem(eventCode, "2026-11-23T08:00:00+01:00", data))
        expect([eventCode, fact]).toMatchObject([eventCode, { status, stage, pspDisputeId: "DISPUTE0001" }])
      }
      // Not a dispute: a fraud notice moves nothing.
      expect(yield* read(disputeItem("NOTIFICATION_OF_FRAUD", "2026-11-23T08:00:00+01:00"))).toEqual([])
    }))
})

const disputesDocument = OpenApiContract.adyenDisputes()

describe("Adyen's Disputes API (v30) on the wire", () => {
  it.scoped("evidence: the defense reasons read, the evidence supplied as a PDF of the reason's document type, then defended; acceptance; refusals in our words", () =>
    Effect.gen(function*() {
      const fake = yield* fakeAdyen
      const connector = yield* adyen(fake)
      const disputes = connector.disputes!
      fake.openDispute("DISPUTE0001")
      const evidence = { product_description: "Wool socks (size 42)", shipping_carrier: "DHL", shipping_tracking_number: "JD0146", customer_name: "Zoë" }
      expect(yield* disputes.submitEvidence({ pspDisputeId: "DISPUTE0001", pspPaymentId: "PSP_PAYMENT", reason: "product_not_received", evidence }))
        .toEqual({ _tag: "Done" })
      const sent = fake.exchanges.map((exchange) => [exchange.url, JSON.parse(exchange.body)])
      expect(sent.map(([url]) => url)).toEqual([
        "/ca/services/DisputeService/v30/retrieveApplicableDefenseReasons",
        "/ca/services/DisputeService/v30/supplyDefenseDocument",
        "/ca/services/DisputeService/v30/defendDispute"
      ])
      expect(sent[0]![1]).toEqual({ merchantAccountCode: fake.merchantAccount, disputePspReference: "DISPUTE0001" })
      // The general reason, which stands on the merchant's own material: its required document type.
      expect(sent[1]![1]).toMatchObject({ defenseDocuments: [{ defenseDocumentTypeCode: "DefenseMaterial", contentType: "application/pdf" }] })
      expect(sent[2]![1]).toMatchObject({ defenseReasonCode: "SupplyDefenseMaterial" })
      const pdf = Buffer.from(fake.disputes.get("DISPUTE0001")!.documents[0]!.content, "base64").toString("latin1")
      expect(pdf.startsWith("%PDF-1.4")).toBe(true)
      expect(pdf).toContain("(Wool socks \\(size 42\\)) '")
      expect(pdf).toContain("(Zo\xeb) '")
      expect(pdf.trimEnd().endsWith("%%EOF")).toBe(true)
      expect(fake.disputes.get("DISPUTE0001")).toMatchObject({ status: "Responded", defendedWith: "SupplyDefenseMaterial" })

      // Defended already: Adyen answers success false; ours is the message, its words kept apart.
      expect(yield* disputes.submitEvidence({ pspDisputeId: "DISPUTE0001", pspPaymentId: null, reason: "general", evidence }))
        .toMatchObject({
          _tag: "Refused",
          code: "invalid_request",
          message: "The payment provider refused the request.",
          providerMessage: expect.stringContaining("not defendable")
        })
      // A dispute Adyen offers no defense for.
      fake.openDispute("DISPUTE0002", [])
      expect(yield* disputes.submitEvidence({ pspDisputeId: "DISPUTE0002", pspPaymentId: null, reason: "general", evidence: {} }))
        .toMatchObject({ _tag: "Refused", code: "dispute_not_defendable" })
      // Only a reason that takes a proof of delivery: the document goes as that type.
      fake.openDispute("DISPUTE0003", [{
        defenseReasonCode: "GoodsOrServicesProvided",
        documentTypes: [{ code: "ProofOfDelivery", requirementLevel: "Required" }]
      }])
      expect(yield* disputes.submitEvidence({ pspDisputeId: "DISPUTE0003", pspPaymentId: null, reason: "general", evidence: {} })).toEqual({ _tag: "Done" })
      expect(fake.disputes.get("DISPUTE0003")!.documents[0]!.defenseDocumentTypeCode).toBe("ProofOfDelivery")

      fake.openDispute("DISPUTE0004")
      expect(yield* disputes.accept({ pspDisputeId: "DISPUTE0004", pspPaymentId: null })).toEqual({ _tag: "Done" })
      expect(fake.disputes.get("DISPUTE0004")!.status).toBe("Accepted")
      expect(yield* disputes.accept({ pspDisputeId: "NOSUCHDISPUTE", pspPaymentId: null })).toMatchObject({ _tag: "Refused" })
      for (const exchange of fake.exchanges) {
        expect([exchange.url, disputesDocument.checkRequest(exchange)]).toEqual([exchange.url, []])
        expect([exchange.url, exchange.status, disputesDocument.checkResponse(exchange)]).toEqual([exchange.url, exchange.status, []])
      }
    }))

  it.scoped("files: each supplied as it was uploaded (base64) beside the text's PDF, of the reason's type for its kind; a refused one in our words", () =>
    Effect.gen(function*() {
      const fake = yield* fakeAdyen
      const disputes = (yield* adyen(fake)).disputes!
      const pdf = new Uint8Array([...new TextEncoder().encode("%PDF-1.4\n%"), 0xe2, 0xe3, 0xcf, 0xd3, ...new TextEncoder().encode("\n%%EOF\n")])
      const jpg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0xff, 0xd9])
      // Only the reason that needs a proof of delivery: the shipping file is that proof, the receipt its defense material.
      fake.openDispute("DISPUTE0005", [{
        defenseReasonCode: "GoodsOrServicesProvided",
        documentTypes: [{ code: "ProofOfDelivery", requirementLevel: "Required" }, { code: "DefenseMaterial", requirementLevel: "Optional" }]
      }])
      const files = [evidenceFile("shipping_documentation", "file_ours1", "pdf", pdf, "pod.pdf"), evidenceFile("receipt", "file_ours2", "jpg", jpg, null)]
      expect(yield* disputes.submitEvidence({ pspDisputeId: "DISPUTE0005", pspPaymentId: null, reason: "product_not_received", evidence: {}, files }))
        .toEqual({ _tag: "Done" })
      // No text: the files alone fill the required type, no PDF of ours beside them.
      expect(fake.disputes.get("DISPUTE0005")!.documents.map((document) => [document.defenseDocumentTypeCode, document.contentType])).toEqual([
        ["ProofOfDelivery", "application/pdf"],
        ["DefenseMaterial", "image/jpeg"]
      ])
      expect(fake.disputes.get("DISPUTE0005")!.documents.map((document) => new Uint8Array(Buffer.from(document.content, "base64")))).toEqual([pdf, jpg])
      expect(fake.disputes.get("DISPUTE0005")).toMatchObject({ status: "Responded", defendedWith: "GoodsOrServicesProvided" })

      // With text, our PDF goes first as the required type, the file beside it in a call of its own.
      fake.openDispute("DISPUTE0006")
      expect(
        yield* disputes.submitEvidence({
          pspDisputeId: "DISPUTE0006",
          pspPaymentId: null,
          reason: "general",
          evidence: { receipt: "Order 1" },
          files: [files[1]!]
        })
      ).toEqual({ _tag: "Done" })
      expect(fake.disputes.get("DISPUTE0006")!.documents.map((document) => [document.defenseDocumentTypeCode, document.contentType])).toEqual([
        ["DefenseMaterial", "application/pdf"],
        ["DefenseMaterial", "image/jpeg"]
      ])

      // Adyen takes no PNG: the file is refused, named in our words, and the dispute is not defended.
      fake.openDispute("DISPUTE0007")
      const png = evidenceFile("uncategorized_file", "file_ours3", "png", new Uint8Array([0x89, 0x50, 0x4e, 0x47]), null)
      const refused = yield* disputes.submitEvidence({ pspDisputeId: "DISPUTE0007", pspPaymentId: null, reason: "general", evidence: {}, files: [png] })
      expect(refused).toMatchObject({ _tag: "Refused", code: "evidence_file_refused", providerMessage: expect.stringContaining("image/png") })
      expect(refused._tag === "Refused" && refused.message).toContain("file_ours3 (given as uncategorized_file)")
      expect(fake.disputes.get("DISPUTE0007")).toMatchObject({ status: "Unresponded", defendedWith: undefined })
      for (const exchange of fake.exchanges) {
        expect([exchange.url, disputesDocument.checkRequest(exchange)]).toEqual([exchange.url, []])
        expect([exchange.url, exchange.status, disputesDocument.checkResponse(exchange)]).toEqual([exchange.url, exchange.status, []])
      }
    }))

  it.effect("settings.disputes_base_url takes an http(s) address only", () =>
    Effect.sync(() => {
      expect(Schema.decodeUnknownEither(AdyenSettings)({ disputes_base_url: "not a url" })._tag).toBe("Left")
      expect(Schema.decodeUnknownEither(AdyenSettings)({ disputes_base_url: "https://ca-live.adyen.com/ca/services/DisputeService/v30" })._tag).toBe("Right")
    }))
})
