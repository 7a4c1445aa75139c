import { expect, layer } from "@effect/vitest"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { merchant, raw, runJobs, serverLayer } from "./support/TestServer.js"

const pspNews = runJobs("sandbox-notifications", "apply-provider-events")

const pdfForm = (name: string) => {
  const form = new FormData()
  form.append("purpose", "dispute_evidence")
  form.append("file", new Blob(["%PDF-1.4\n%%EOF\n"], { type: "application/pdf" }), name)
  return form
}

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(`dispute evidence files on ${database.name}`, (it) => {
    it.effect("names uploaded files in a dispute's evidence, refuses another organization's or an unknown file, and submits them to the sandbox", () =>
      Effect.gen(function*() {
        const account = yield* merchant()
        const call = (path: string, body?: object) =>
          raw(
            `${account.baseUrl}${path}`,
            body === undefined
              ? { headers: json(account.secret) }
              : { method: "POST", headers: json(account.secret, newKey()), body: JSON.stringify(body) }
          )
        const upload = (secret: string, name: string) =>
          Effect.map(
            raw(`${account.baseUrl}/v1/files`, { method: "POST", headers: { authorization: `Bearer ${secret}` }, body: pdfForm(name) }),
            (answer) => answer.json.id as string
          )
        const payment = (yield* call("/v1/payments", paymentWith("tok_createDispute", { amount: 5000 }))).json
        yield* pspNews
        const dispute = (yield* call(`/v1/disputes?payment_id=${payment.id}`)).json.data[0]

        const receipt = yield* upload(account.secret, "receipt.pdf")
        const label = yield* upload(account.secret, "label.pdf")
        const saved = yield* call(`/v1/disputes/${dispute.id}/evidence`, { product_description: "Wool socks", files: { receipt } })
        expect([saved.status, saved.json.evidence]).toEqual([200, { product_description: "Wool socks", files: { receipt } }])
        // Files given later join those saved, kind by kind.
        const more = yield* call(`/v1/disputes/${dispute.id}/evidence`, { files: { shipping_documentation: label } })
        expect(more.json.evidence.files).toEqual({ receipt, shipping_documentation: label })

        const other = yield* merchant()
        const foreign = yield* upload(other.secret, "theirs.pdf")
        for (const fileId of [foreign, "file_unknown"]) {
          const refused = yield* call(`/v1/disputes/${dispute.id}/evidence`, { files: { uncategorized_file: fileId } })
          expect([refused.status, refused.json.error.code, refused.json.error.param]).toEqual([404, "resource_missing", "files.uncategorized_file"])
        }
        expect((yield* call(`/v1/disputes/${dispute.id}`)).json.evidence.files).toEqual({ receipt, shipping_documentation: label })

        const submitted = yield* call(`/v1/disputes/${dispute.id}/submit`, {})
        expect([submitted.status, submitted.json.status, submitted.json.evidence_submission.status]).toEqual([200, "under_review", "submitted"])
      }))
  })
}
