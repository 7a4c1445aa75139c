import { expect, layer } from "@effect/vitest"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { merchant, raw, runJobs, serverLayer } from "./support/TestServer.js"

/** The sandbox's webhooks sent, and applied, as the worker does. */
const pspNews = runJobs("sandbox-notifications", "apply-provider-events")

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `disputes over HTTP on ${database.name}`,
    (it) => {
      /** A payment with `tok_createDispute`, and the dispute the sandbox opens on it. */
      const disputed = Effect.gen(function*() {
        const account = yield* merchant()
        const call = (path: string, body?: object) =>
          raw(
            `${account.baseUrl}${path}`,
            body === undefined ? { headers: json(account.secret) } : {
              method: "POST",
              headers: json(account.secret, newKey()),
              body: JSON.stringify(body)
            }
          )
        const payment = (yield* call("/v1/payments", paymentWith("tok_createDispute", { amount: 5000 }))).json
        yield* pspNews
        const listed = yield* call(`/v1/disputes?payment_id=${payment.id}`)
        return { ...account, call, payment, dispute: listed.json.data[0] }
      })

      it.effect("opens a dispute on a test payment, holds its amount back from refunds, and wins it with evidence", () =>
        Effect.gen(function*() {
          const { call, dispute, payment } = yield* disputed
          expect(dispute).toMatchObject({
            object: "dispute",
            payment_id: payment.id,
            provider: payment.provider,
            amount: 5000,
            currency: "EUR",
            reason: "fraudulent",
            reason_code: "10.4",
            stage: "chargeback",
            status: "needs_response",
            funds: "withdrawn",
            evidence: {},
            evidence_submission: { status: "not_submitted", submitted_at: null, failure: null },
            fee: { amount: 1500, currency: "EUR" },
            livemode: false
          })
          expect(dispute.id).toMatch(/^dp_/)
          expect(dispute.evidence_due_by).toEqual(expect.any(String))
          expect((yield* call(`/v1/payments/${payment.id}`)).json).toMatchObject({ status: "succeeded", amount_disputed: 5000, disputed: true })
          const refund = yield* call(`/v1/payments/${payment.id}/refund`, {})
          expect([refund.status, refund.json.error.code]).toEqual([409, "charge_disputed"])

          const saved = yield* call(`/v1/disputes/${dispute.id}/evidence`, { product_description: "Wool socks", uncategorized_text: "winning_evidence" })
          expect([saved.status, saved.json.evidence]).toEqual([200, { product_description: "Wool socks", uncategorized_text: "winning_evidence" }])
          const submitted = yield* call(`/v1/disputes/${dispute.id}/submit`, {})
          expect([submitted.status, submitted.json.status, submitted.json.evidence_submission.status]).toEqual([200, "under_review", "submitted"])
          yield* pspNews
          const won = (yield* call(`/v1/disputes/${dispute.id}`)).json
          expect([won.status, won.funds]).toEqual(["won", "reinstated"])
          expect((yield* call(`/v1/payments/${payment.id}`)).json).toMatchObject({ amount_disputed: 0, disputed: true })

          const late = yield* call(`/v1/disputes/${dispute.id}/evidence`, { receipt: "too late" })
          expect([late.status, late.json.error.type, late.json.error.code, late.json.error.dispute.id]).toEqual([
            409,
            "invalid_request_error",
            "dispute_closed",
            dispute.id
          ])
          const types = (yield* call(`/v1/events?limit=20`)).json.data
            .filter((event: { data: { object: { id: string } } }) => event.data.object.id === dispute.id)
            .map((event: { type: string }) => event.type)
            .reverse()
          expect(types).toEqual([
            "dispute.created",
            "dispute.funds_withdrawn",
            "dispute.evidence_submitted",
            "dispute.closed",
            "dispute.funds_reinstated"
          ])
        }))

      it.effect("accepts a dispute, lists by filters, and hides another organization's disputes", () =>
        Effect.gen(function*() {
          const { call, dispute, payment } = yield* disputed
          const byStatus = yield* call(`/v1/disputes?status=needs_response&provider=${payment.provider}`)
          expect(byStatus.json.data.map((each: { id: string }) => each.id)).toEqual([dispute.id])
          const soon = yield* call(`/v1/disputes?due_before=${encodeURIComponent(new Date(Date.now() + 24 * 3600_000).toISOString())}`)
          expect(soon.json.data).toEqual([])
          const bad = yield* call(`/v1/disputes?status=open`)
          expect([bad.status, bad.json.error.param]).toEqual([400, "status"])

          const other = yield* disputed
          const foreign = yield* other.call(`/v1/disputes/${dispute.id}`)
          expect([foreign.status, foreign.json.error.code]).toEqual([404, "resource_missing"])
          const foreignEvidence = yield* other.call(`/v1/disputes/${dispute.id}/evidence`, { receipt: "x" })
          expect(foreignEvidence.status).toBe(404)

          const accepted = yield* call(`/v1/disputes/${dispute.id}/accept`, {})
          expect([accepted.status, accepted.json.status, accepted.json.funds]).toEqual([200, "accepted", "withdrawn"])
          // The sandbox then reports the dispute lost: older news of a final answer changes nothing.
          yield* pspNews
          expect((yield* call(`/v1/disputes/${dispute.id}`)).json.status).toBe("accepted")
          const again = yield* call(`/v1/disputes/${dispute.id}/submit`, {})
          expect([again.status, again.json.error.code]).toEqual([409, "dispute_closed"])
        }))
    }
  )
}
