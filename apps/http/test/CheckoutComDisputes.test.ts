import { expect, layer } from "@effect/vitest"
import { checkoutComSignature, checkoutComToken, fakeCheckoutCom, multipartUploads, OpenApiContract, testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { apiCaller, EVIDENCE_PDF, uploadEvidenceFile } from "./support/Fixtures.js"
import { merchant, raw, runJobs, serverLayer } from "./support/TestServer.js"

const SIGNATURE_KEY = "whsk_checkout_disputes"
const DISPUTE_ID = "dsp_httpfiles00000000000000000"
const contract = OpenApiContract.checkoutCom()

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `Checkout.com dispute evidence files through the HTTP API, against its wire-level fake, on ${database.name}`,
    (it) => {
      it.scoped("a file uploaded here goes to Checkout.com's /files and is named in the evidence PUT; a refused upload keeps the evidence editable", () =>
        Effect.gen(function*() {
          const fake = yield* fakeCheckoutCom
          const { baseUrl, secret } = yield* merchant()
          const call = apiCaller(baseUrl, secret)
          const connection = yield* call("/v1/provider-connections", {
            name: "cko_disputes",
            type: "checkout_com",
            credentials: { secret_key: "sk_sbox_checkoutdisputes1" },
            webhook_secret: SIGNATURE_KEY,
            base_url: fake.url,
            settings: { processing_channel_id: fake.processingChannelId }
          })
          expect(connection.status).toBe(201)
          const paid = yield* call("/v1/payments", {
            amount: 1050,
            currency: "EUR",
            payment_method: { type: "card", token: checkoutComToken("approved") },
            return_url: "https://shop.example/back",
            provider: "cko_disputes"
          })
          expect(paid.json.status).toBe("succeeded")
          const event = fake.disputeEvent("dispute_evidence_required", paid.json.provider_payment_id, DISPUTE_ID, new Date().toISOString())
          const delivered = yield* raw(`${baseUrl}/v1/provider-webhooks/${connection.json.id}`, {
            method: "POST",
            headers: { "content-type": "application/json", "cko-signature": checkoutComSignature(SIGNATURE_KEY, event) },
            body: event
          })
          expect(delivered.status).toBe(200)
          yield* runJobs("apply-provider-events")
          const [opened] = (yield* call(`/v1/disputes?payment_id=${paid.json.id}`)).json.data
          expect(opened).toMatchObject({ provider_dispute_id: DISPUTE_ID, status: "needs_response" })

          const file = yield* uploadEvidenceFile(baseUrl, secret, EVIDENCE_PDF, "delivery.pdf")
          yield* call(`/v1/disputes/${opened.id}/evidence`, { product_description: "Wool socks", files: { shipping_documentation: file.json.id } })

          // Checkout.com refuses the upload: nothing is submitted, the evidence stays editable, the reason is ours.
          fake.injectFault({ status: 422, error_codes: ["file_invalid"] })
          const refused = yield* call(`/v1/disputes/${opened.id}/submit`, {})
          expect([refused.status, refused.json.error.code, refused.json.error.dispute.status, refused.json.error.dispute.evidence_submission.status])
            .toEqual([422, "evidence_file_refused", "needs_response", "refused"])
          expect(refused.json.error.message).toContain(`${file.json.id} (given as shipping_documentation)`)
          expect(refused.text).not.toContain("file_invalid")
          expect(fake.disputes.get(DISPUTE_ID)).toMatchObject({ status: "evidence_required", evidence: {} })

          const submitted = yield* call(`/v1/disputes/${opened.id}/submit`, {})
          expect([submitted.status, submitted.json.status, submitted.json.evidence_submission.status]).toEqual([200, "under_review", "submitted"])
          const upload = fake.exchanges.filter((exchange) => exchange.url === "/files" && exchange.status === 200).at(-1)!
          // The document describes the file part as `path` (its curl example: `file=@/path/receipt.png`); Checkout.com reads `file`.
          expect(contract.checkRequest(upload).filter((problem) => !problem.includes("\"missingProperty\":\"path\""))).toEqual([])
          const parts = multipartUploads(upload.bytes!, upload.headers["content-type"])!
          expect(parts.map((part) => [part.name, part.filename, part.type])).toEqual([
            ["purpose", undefined, undefined],
            ["file", "delivery.pdf", "application/pdf"]
          ])
          expect(parts[1]!.bytes).toEqual(EVIDENCE_PDF)
          const checkoutFile = JSON.parse(upload.responseBody).id
          expect(fake.files.get(checkoutFile)?.bytes).toEqual(EVIDENCE_PDF)
          const put = fake.exchanges.find((exchange) => exchange.method === "PUT")!
          expect(contract.checkRequest(put)).toEqual([])
          expect(fake.disputes.get(DISPUTE_ID)).toMatchObject({
            status: "evidence_under_review",
            evidence: { proof_of_delivery_or_service_text: "Wool socks", proof_of_delivery_or_service_file: checkoutFile }
          })
        }))
    }
  )
}
