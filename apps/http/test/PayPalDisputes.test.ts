import { expect, layer } from "@effect/vitest"
import { fakePayPal, multipartUploads, OpenApiContract, testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { apiCaller, EVIDENCE_PDF, uploadEvidenceFile } from "./support/Fixtures.js"
import { merchant, raw, runJobs, serverLayer } from "./support/TestServer.js"

const WEBHOOK_ID = "8PT597110X687430LFAKE"

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `PayPal disputes through the HTTP API, against a wire-level fake, on ${database.name}`,
    (it) => {
      it.scoped("CUSTOMER.DISPUTE.* webhooks open and move the dispute in any order, repeats change nothing; evidence and its file go by provide-evidence", () =>
        Effect.gen(function*() {
          const paypal = yield* fakePayPal
          const { baseUrl, secret } = yield* merchant()
          const call = apiCaller(baseUrl, secret)
          const connection = yield* call("/v1/provider-connections", {
            name: "paypal_disputes",
            type: "paypal",
            credentials: { client_id: paypal.clientId, client_secret: paypal.clientSecret },
            base_url: paypal.url,
            settings: { webhook_id: WEBHOOK_ID }
          })
          expect(connection.status).toBe(201)
          const created = yield* call("/v1/payments", {
            amount: 1050,
            currency: "EUR",
            payment_method: { type: "paypal" },
            return_url: "https://shop.example/back",
            provider: "paypal_disputes"
          })
          // The payer approves at PayPal and comes back through our return URL.
          const back = (yield* raw(created.json.next_action.url)).headers.get("location")!
          expect((yield* raw(back)).status).toBe(303)
          const paid = (yield* call(`/v1/payments/${created.json.id}`)).json
          expect(paid.status).toBe("succeeded")

          const dispute = paypal.openDispute(paid.provider_payment_id, { at: "2026-11-20T08:00:00Z", dueDate: "2099-01-01T00:00:00Z" })
          const post = (delivery: { readonly headers: Record<string, string>; readonly body: string }) =>
            raw(`${baseUrl}/v1/provider-webhooks/${connection.json.id}`, { method: "POST", headers: delivery.headers, body: delivery.body })
          const deliver = (type: string) => post(paypal.webhook(WEBHOOK_ID, type, paypal.disputeResource(dispute.id)))
          const creation = paypal.webhook(WEBHOOK_ID, "CUSTOMER.DISPUTE.CREATED", paypal.disputeResource(dispute.id))
          paypal.moveDispute(dispute.id, { stage: "PRE_ARBITRATION", at: "2026-11-22T08:00:00Z" })
          // The later news arrives and is applied first, then the earlier, twice: the later stands, one dispute.
          expect((yield* deliver("CUSTOMER.DISPUTE.UPDATED")).status).toBe(200)
          yield* runJobs("apply-provider-events")
          expect((yield* post(creation)).json).toMatchObject({ received: 1, duplicates: 0 })
          expect((yield* post(creation)).json).toMatchObject({ received: 0, duplicates: 1 })
          yield* runJobs("apply-provider-events")
          const [opened, ...others] = (yield* call(`/v1/disputes?payment_id=${paid.id}`)).json.data
          expect(others).toEqual([])
          expect(opened).toMatchObject({
            provider: "paypal_disputes",
            provider_dispute_id: dispute.id,
            status: "needs_response",
            stage: "pre_arbitration",
            funds: "withdrawn",
            amount: 1050,
            currency: "EUR",
            reason: "product_not_received",
            reason_code: "MERCHANDISE_OR_SERVICE_NOT_RECEIVED",
            evidence_due_by: "2099-01-01T00:00:00.000Z",
            provider_reported_at: "2026-11-22T08:00:00.000Z"
          })
          expect((yield* call(`/v1/payments/${paid.id}`)).json).toMatchObject({ amount_disputed: 1050, disputed: true })

          const file = yield* uploadEvidenceFile(baseUrl, secret, EVIDENCE_PDF, "delivery note.pdf")
          expect(file.status).toBe(201)
          yield* call(`/v1/disputes/${opened.id}/evidence`, {
            product_description: "Wool socks",
            shipping_carrier: "UPS",
            shipping_tracking_number: "1Z999",
            files: { shipping_documentation: file.json.id }
          })
          // PayPal refuses the file: nothing is submitted, the evidence stays editable, the reason is ours.
          paypal.injectFault({ status: 422, issue: "INVALID_EVIDENCE_FILE" })
          const fileRefused = yield* call(`/v1/disputes/${opened.id}/submit`, {})
          expect([
            fileRefused.status,
            fileRefused.json.error.code,
            fileRefused.json.error.dispute.status,
            fileRefused.json.error.dispute.evidence_submission.status
          ])
            .toEqual([422, "evidence_file_refused", "needs_response", "refused"])
          expect(fileRefused.json.error.message).toContain(`${file.json.id} (given as shipping_documentation)`)
          expect(fileRefused.text).not.toContain("INVALID_EVIDENCE_FILE")
          expect(paypal.disputes.get(dispute.id)).toMatchObject({ status: "WAITING_FOR_SELLER_RESPONSE", evidences: [], files: [] })
          // PayPal refuses (the due date passed there): the evidence stays editable, and says why in our words.
          paypal.moveDispute(dispute.id, { dueDate: "2026-01-01T00:00:00Z", at: "2026-11-22T08:00:00Z" })
          const refused = yield* call(`/v1/disputes/${opened.id}/submit`, {})
          expect([refused.status, refused.json.error.dispute.evidence_submission.status]).toEqual([422, "refused"])
          expect(refused.text).not.toContain("RESPONSE_DUE_DATE_PASSED")
          paypal.moveDispute(dispute.id, { dueDate: "2099-01-01T00:00:00Z", at: "2026-11-22T08:00:00Z" })
          const submitted = yield* call(`/v1/disputes/${opened.id}/submit`, {})
          expect([submitted.status, submitted.json.status, submitted.json.evidence_submission.status]).toEqual([200, "under_review", "submitted"])
          expect(paypal.disputes.get(dispute.id)!.evidences.map((evidence) => [evidence.evidence_type, evidence.documents])).toEqual([
            ["PROOF_OF_FULFILLMENT", undefined],
            ["ITEM_DESCRIPTION", undefined],
            ["ADDITIONAL_PROOF_OF_SHIPMENT", [{ name: `${file.json.id}.pdf` }]]
          ])
          // The file's bytes arrived as uploaded, as an evidence-file part; the request is as PayPal's document declares it.
          expect(paypal.disputes.get(dispute.id)!.files).toEqual([{ filename: `${file.json.id}.pdf`, type: "application/pdf", bytes: EVIDENCE_PDF }])
          const sent = paypal.exchanges.filter((exchange) => exchange.url.endsWith("/provide-evidence")).at(-1)!
          expect(multipartUploads(sent.bytes!, sent.headers["content-type"])!.map((part) => part.name)).toEqual(["input", "evidence-file"])
          expect(OpenApiContract.paypalDisputes().checkRequest(sent)).toEqual([])

          // Resolved in the merchant's favour: won, the money given back to the payment.
          paypal.moveDispute(dispute.id, { status: "RESOLVED", outcome: "RESOLVED_SELLER_FAVOUR", at: "2026-11-25T08:00:00Z" })
          yield* deliver("CUSTOMER.DISPUTE.RESOLVED")
          yield* runJobs("apply-provider-events")
          expect((yield* call(`/v1/disputes/${opened.id}`)).json).toMatchObject({ status: "won", funds: "reinstated" })
          expect((yield* call(`/v1/payments/${paid.id}`)).json).toMatchObject({ amount_disputed: 0, disputed: true })
        }))
    }
  )
}
