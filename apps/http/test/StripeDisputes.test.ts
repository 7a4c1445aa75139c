import { expect, layer } from "@effect/vitest"
import { fakeStripe, multipartUploads, OpenApiContract, testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { apiCaller, EVIDENCE_PDF, fakePspConnection, uploadEvidenceFile } from "./support/Fixtures.js"
import { merchant, raw, runJobs, serverLayer } from "./support/TestServer.js"

const WEBHOOK_SECRET = "whsec_stripe_disputes"
const contract = OpenApiContract.stripe()

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `Stripe disputes through the HTTP API, against a wire-level fake, on ${database.name}`,
    (it) => {
      it.scoped("a charge.dispute.* webhook opens the dispute, in any order; evidence and its files go to Stripe and a refusal keeps it editable", () =>
        Effect.gen(function*() {
          const stripe = yield* fakeStripe
          const { baseUrl, secret } = yield* merchant()
          const call = apiCaller(baseUrl, secret)
          const connection = yield* call("/v1/provider-connections", {
            ...fakePspConnection("stripe", { name: "stripe_disputes", url: stripe.url }),
            webhook_secret: WEBHOOK_SECRET
          })
          expect(connection.status).toBe(201)
          const paid = yield* call("/v1/payments", {
            amount: 2500,
            currency: "EUR",
            payment_method: { type: "card", token: "pm_card_visa" },
            provider: "stripe_disputes"
          })
          expect(paid.json.status).toBe("succeeded")
          const dispute = stripe.openDispute(paid.json.provider_payment_id)
          const deliver = (type: string, at: number) => {
            const event = stripe.signedEvent(WEBHOOK_SECRET, type, stripe.disputeObject(dispute.id), at)
            return raw(`${baseUrl}/v1/provider-webhooks/${connection.json.id}`, {
              method: "POST",
              headers: { "content-type": "application/json", "stripe-signature": event.signature },
              body: event.body
            })
          }
          const now = Math.floor(Date.now() / 1000)
          // Stripe's news out of order: the withdrawal (later) before the creation (earlier).
          expect((yield* deliver("charge.dispute.funds_withdrawn", now)).status).toBe(200)
          expect((yield* deliver("charge.dispute.created", now - 5)).status).toBe(200)
          yield* runJobs("apply-provider-events")
          const [opened] = (yield* call(`/v1/disputes?payment_id=${paid.json.id}`)).json.data
          expect(opened).toMatchObject({
            provider: "stripe_disputes",
            provider_dispute_id: dispute.id,
            status: "needs_response",
            funds: "withdrawn",
            amount: 2500,
            reason: "fraudulent",
            fee: { amount: 1500, currency: "EUR" }
          })
          expect((yield* call(`/v1/payments/${paid.json.id}`)).json).toMatchObject({ amount_disputed: 2500, disputed: true })

          // Stripe refuses (the deadline passed there): the evidence stays editable, and says why in our words.
          yield* call(`/v1/disputes/${opened.id}/evidence`, { product_description: "Wool socks" })
          stripe.injectFault({ status: 400, type: "invalid_request_error", message: "The deadline for responding to this dispute has passed." })
          const refused = yield* call(`/v1/disputes/${opened.id}/submit`, {})
          expect([refused.status, refused.json.error.code, refused.json.error.dispute.evidence_submission.status]).toEqual([
            422,
            "invalid_request",
            "refused"
          ])
          expect(refused.text).not.toContain("deadline for responding")

          // A receipt as a PDF (with the binary comment line real ones have), uploaded here, then named as evidence.
          const pdf = EVIDENCE_PDF
          const file = yield* uploadEvidenceFile(baseUrl, secret, pdf, "receipt.pdf")
          expect(file.status).toBe(201)
          yield* call(`/v1/disputes/${opened.id}/evidence`, { files: { receipt: file.json.id } })

          // Stripe refuses the upload: nothing is submitted, the evidence stays editable, and the reason is ours.
          stripe.injectFault({ status: 400, type: "invalid_request_error", message: "The file could not be processed by Stripe's scanner." })
          const uploadRefused = yield* call(`/v1/disputes/${opened.id}/submit`, {})
          expect([uploadRefused.status, uploadRefused.json.error.code, uploadRefused.json.error.dispute.status]).toEqual([
            422,
            "evidence_file_refused",
            "needs_response"
          ])
          expect(uploadRefused.json.error.message).toContain(`${file.json.id} (given as receipt)`)
          expect(uploadRefused.text).not.toContain("scanner")
          expect(stripe.disputes.get(dispute.id)).toMatchObject({ status: "needs_response", evidence: {} })
          const edited = yield* call(`/v1/disputes/${opened.id}/evidence`, { customer_email: "jane@example.com" })
          expect([edited.status, edited.json.evidence]).toEqual([200, {
            product_description: "Wool socks",
            customer_email: "jane@example.com",
            files: { receipt: file.json.id }
          }])

          const submitted = yield* call(`/v1/disputes/${opened.id}/submit`, {})
          expect([submitted.status, submitted.json.status, submitted.json.evidence_submission.status]).toEqual([200, "under_review", "submitted"])
          // Stripe got the bytes in a multipart upload as its document describes, and the evidence names its file.
          const upload = stripe.exchanges.filter((exchange) => exchange.url === "/v1/files" && exchange.status === 200).at(-1)!
          expect(contract.checkRequest(upload)).toEqual([])
          const parts = multipartUploads(upload.bytes!, upload.headers["content-type"])!
          expect(parts.map((part) => [part.name, part.filename, part.type])).toEqual([["purpose", undefined, undefined], [
            "file",
            "receipt.pdf",
            "application/pdf"
          ]])
          expect(parts[1]!.bytes).toEqual(pdf)
          const stripeFile = JSON.parse(upload.responseBody).id
          expect(stripe.files.get(stripeFile)?.bytes).toEqual(pdf)
          const evidenceSent = stripe.exchanges.at(-1)!
          expect([evidenceSent.url, contract.checkRequest(evidenceSent)]).toEqual([`/v1/disputes/${dispute.id}`, []])
          expect(stripe.disputes.get(dispute.id)).toMatchObject({
            status: "under_review",
            evidence: { product_description: "Wool socks", customer_email_address: "jane@example.com", receipt: stripeFile }
          })
        }))
    }
  )
}
