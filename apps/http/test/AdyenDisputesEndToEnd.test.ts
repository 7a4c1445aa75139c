import { expect, layer } from "@effect/vitest"
import { fakeAdyen, type NotificationFields, OpenApiContract, testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { apiCaller, EVIDENCE_PDF, uploadEvidenceFile } from "./support/Fixtures.js"
import { merchant, raw, runJobs, serverLayer } from "./support/TestServer.js"

const ADYEN_HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056"
const disputesDocument = OpenApiContract.adyenDisputes()
const webhooksDocument = OpenApiContract.adyenWebhooks()

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `Adyen disputes through the HTTP API, against a wire-level fake, on ${database.name}`,
    (it) => {
      it.scoped("a chargeback notification opens the dispute (any order, repeated); the evidence and its file go to the Disputes API (a refused file in our words); the reversal wins it", () =>
        Effect.gen(function*() {
          const adyen = yield* fakeAdyen
          const { baseUrl, secret } = yield* merchant()
          const call = apiCaller(baseUrl, secret)
          const connection = yield* call("/v1/provider-connections", {
            name: "adyen_disputes",
            type: "adyen",
            credentials: { api_key: "AQE_disputes", merchant_account: adyen.merchantAccount },
            webhook_secret: ADYEN_HMAC_KEY,
            base_url: adyen.url,
            settings: { disputes_base_url: adyen.disputesUrl }
          })
          expect(connection.status).toBe(201)
          const paid = yield* call("/v1/payments", {
            amount: 2500,
            currency: "EUR",
            payment_method: { type: "card", token: "visa_ok" },
            provider: "adyen_disputes"
          })
          expect(paid.json.status).toBe("succeeded")
          const item = (eventCode: string, eventDate: string, additionalData: Record<string, unknown>): NotificationFields => ({
            pspReference: "DISPUTE7001",
            originalReference: paid.json.provider_payment_id,
            merchantReference: paid.json.attempts[0].id,
            amount: { value: 2500, currency: "EUR" },
            eventCode,
            success: true,
            reason: "Merchandise/Services Not Received",
            eventDate,
            additionalData: { chargebackReasonCode: "13.1", chargebackSchemeCode: "visa", ...additionalData }
          })
          const notify = (fields: NotificationFields) =>
            Effect.gen(function*() {
              const body = adyen.notification(ADYEN_HMAC_KEY, [fields])
              expect(webhooksDocument.checkWebhook(`/${fields.eventCode}`, JSON.parse(body))).toEqual([])
              const answer = yield* raw(`${baseUrl}/v1/provider-webhooks/${connection.json.id}`, {
                method: "POST",
                headers: { "content-type": "application/json" },
                body
              })
              expect([answer.status, answer.text]).toEqual([200, "[accepted]"])
            })
          const dueBy = new Date(Date.now() + 14 * 86_400_000).toISOString()
          const chargeback = item("CHARGEBACK", new Date(Date.now() - 60_000).toISOString(), { disputeStatus: "Unresponded", defensePeriodEndsAt: dueBy })
          // Adyen's news out of order and twice: the notice of chargeback comes after the chargeback itself.
          yield* notify(chargeback)
          yield* notify(chargeback)
          yield* notify(item("NOTIFICATION_OF_CHARGEBACK", new Date(Date.now() - 120_000).toISOString(), {}))
          yield* runJobs("apply-provider-events")
          const listed = (yield* call(`/v1/disputes?payment_id=${paid.json.id}`)).json.data
          expect(listed).toHaveLength(1)
          const [opened] = listed
          expect(opened).toMatchObject({
            provider: "adyen_disputes",
            provider_dispute_id: "DISPUTE7001",
            status: "needs_response",
            stage: "chargeback",
            amount: 2500,
            currency: "EUR",
            reason: "product_not_received",
            evidence_due_by: dueBy
          })
          expect((yield* call(`/v1/payments/${paid.json.id}`)).json).toMatchObject({ amount_disputed: 2500, disputed: true, status: "succeeded" })

          adyen.openDispute("DISPUTE7001")
          // A PNG, which Adyen does not take as a defense document.
          const form = new FormData()
          form.append("purpose", "dispute_evidence")
          form.append("file", new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00])], { type: "image/png" }), "photo.png")
          const png = yield* raw(`${baseUrl}/v1/files`, { method: "POST", headers: { authorization: `Bearer ${secret}` }, body: form })
          expect(png.status).toBe(201)
          yield* call(`/v1/disputes/${opened.id}/evidence`, {
            product_description: "Hiking boots, size 44",
            shipping_carrier: "DHL",
            shipping_tracking_number: "JD014600006281"
          })
          yield* call(`/v1/disputes/${opened.id}/evidence`, { files: { shipping_documentation: png.json.id } })
          const refused = yield* call(`/v1/disputes/${opened.id}/submit`, {})
          expect([refused.status, refused.json.error.code, refused.json.error.dispute.status, refused.json.error.dispute.evidence_submission.status])
            .toEqual([422, "evidence_file_refused", "needs_response", "refused"])
          expect(refused.json.error.message).toContain(`${png.json.id} (given as shipping_documentation)`)
          expect(refused.text).not.toContain("not supported")
          expect(adyen.disputes.get("DISPUTE7001")).toMatchObject({ status: "Unresponded", defendedWith: undefined })

          // The PDF in its place goes as it was uploaded, beside the text's PDF.
          const file = yield* uploadEvidenceFile(baseUrl, secret, EVIDENCE_PDF, "delivery.pdf")
          yield* call(`/v1/disputes/${opened.id}/evidence`, { files: { shipping_documentation: file.json.id } })
          const submitted = yield* call(`/v1/disputes/${opened.id}/submit`, {})
          expect([submitted.status, submitted.json.status, submitted.json.evidence_submission.status]).toEqual([200, "under_review", "submitted"])
          const calls = adyen.exchanges.filter((exchange) => exchange.url.startsWith("/ca/services/DisputeService/v30/"))
          expect(calls.map((exchange) => exchange.url.split("/").at(-1))).toEqual([
            "retrieveApplicableDefenseReasons",
            "supplyDefenseDocument",
            "supplyDefenseDocument",
            "retrieveApplicableDefenseReasons",
            "supplyDefenseDocument",
            "supplyDefenseDocument",
            "defendDispute"
          ])
          for (const exchange of calls) expect([exchange.url, disputesDocument.checkRequest(exchange)]).toEqual([exchange.url, []])
          const documents = adyen.disputes.get("DISPUTE7001")!.documents
          const pdf = Buffer.from(documents.at(-2)!.content, "base64").toString("latin1")
          expect(pdf).toContain("Hiking boots, size 44")
          expect([documents.at(-1)!.contentType, new Uint8Array(Buffer.from(documents.at(-1)!.content, "base64"))]).toEqual(["application/pdf", EVIDENCE_PDF])
          expect(adyen.disputes.get("DISPUTE7001")).toMatchObject({ status: "Responded" })

          // Answered already: evidence on it is refused, nothing more goes to Adyen.
          const late = yield* call(`/v1/disputes/${opened.id}/evidence`, { product_description: "changed" })
          expect([late.status, late.json.error.code]).toEqual([409, "dispute_evidence_submitted"])

          yield* notify(item("CHARGEBACK_REVERSED", new Date().toISOString(), { disputeStatus: "Won" }))
          yield* runJobs("apply-provider-events")
          const won = (yield* call(`/v1/disputes/${opened.id}`)).json
          expect(won.status).toBe("won")
          // Another organization cannot see it.
          const other = yield* merchant()
          expect((yield* apiCaller(other.baseUrl, other.secret)(`/v1/disputes/${opened.id}`)).status).toBe(404)
        }))
    }
  )
}
