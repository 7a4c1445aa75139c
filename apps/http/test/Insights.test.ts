import { expect, layer } from "@effect/vitest"
import { Organizations } from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { merchant, raw, runJobs } from "./support/TestServer.js"
import { serverLayer } from "./support/TestServer.js"

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `insights over HTTP on ${database.name}`,
    (it) => {
      it.effect("counts each provider's attempts, successes, failures and latency, and deliveries by status", () =>
        Effect.gen(function*() {
          const shop = yield* merchant()
          const other = yield* merchant()
          yield* shop.client.webhooks.createEndpoint({
            headers: {},
            payload: { url: "http://127.0.0.1:9/hooks", enabled_events: ["payment.succeeded"] } as never
          })
          for (const token of ["tok_visa", "tok_visa", "tok_chargeDeclined"]) {
            yield* Effect.either(shop.client.payments.create({ headers: { "idempotency-key": newKey() }, payload: paymentWith(token) }))
          }
          yield* runJobs("dispatch-events")

          const insights = yield* shop.client.insights.insights({ urlParams: {} })
          expect(insights.bucket_minutes).toBe(60)
          expect(insights.providers.map((stats) => stats.provider)).toEqual(["sandbox_a"])
          const sandbox = insights.providers[0]!
          expect([sandbox.attempts, sandbox.succeeded, sandbox.failed]).toEqual([3, 2, 1])
          expect(sandbox.success_rate).toBeCloseTo(2 / 3)
          expect(sandbox.latency_ms_avg).not.toBeNull()
          // Every hour of the window has its bucket, and the attempts are in them.
          expect(sandbox.buckets.length).toBeGreaterThanOrEqual(24)
          expect(sandbox.buckets.reduce((sum, bucket) => sum + bucket.attempts, 0)).toBe(3)
          // The last hour holds them, or the last two should the payments straddle an hour's turn.
          expect(sandbox.buckets.slice(-2).reduce((sum, bucket) => sum + bucket.attempts, 0)).toBe(3)
          expect(insights.deliveries).toEqual({ pending: 2, succeeded: 0, exhausted: 0 })

          // Another organization, and the same organization's live mode, see none of it.
          const elsewhere = yield* other.client.insights.insights({ urlParams: { hours: 720 } })
          expect([elsewhere.providers, elsewhere.bucket_minutes]).toEqual([[], 1440])
          const live = yield* Effect.flatMap(Organizations, (organizations) => organizations.createKey(shop.organization.id, true))
          const liveView = yield* raw(`${shop.baseUrl}/v1/insights`, { headers: json(live.secret) })
          expect([liveView.status, liveView.json.providers, liveView.json.livemode]).toEqual([200, [], true])
        }))

      it.effect("refuses a window outside 1 to 720 hours with a 400 naming hours", () =>
        Effect.gen(function*() {
          const shop = yield* merchant()
          for (const hours of ["0", "721", "1.5", "day"]) {
            const response = yield* raw(`${shop.baseUrl}/v1/insights?hours=${hours}`, { headers: json(shop.secret) })
            expect([response.status, response.json.error.param]).toEqual([400, "hours"])
          }
        }))

      it.effect("tells a payment's story: its events and its refunds', with their webhook deliveries", () =>
        Effect.gen(function*() {
          const shop = yield* merchant()
          const other = yield* merchant()
          yield* shop.client.webhooks.createEndpoint({ headers: {}, payload: { url: "http://127.0.0.1:9/hooks" } as never })
          const payment = yield* shop.client.payments.create({ headers: { "idempotency-key": newKey() }, payload: paymentWith("tok_visa") })
          const unrelated = yield* shop.client.payments.create({ headers: { "idempotency-key": newKey() }, payload: paymentWith("tok_visa") })
          yield* shop.client.refunds.create({ path: { id: payment.id }, headers: { "idempotency-key": newKey() }, payload: { amount: 100 } })
          yield* runJobs("dispatch-events")

          const timeline = yield* shop.client.insights.paymentTimeline({ path: { id: payment.id } })
          const types = timeline.events.map((event) => event.type)
          expect(types).toContain("payment.succeeded")
          expect(types).toContain("refund.succeeded")
          expect(timeline.events.every((event) =>
            event.data.object.id === payment.id || ("payment_id" in event.data.object && event.data.object.payment_id === payment.id)
          )).toBe(true)
          expect(JSON.stringify(timeline)).not.toContain(unrelated.id)
          expect(
            timeline.deliveries.map((delivery) =>
              delivery.event_id
            ).sort()
          ).toEqual(timeline.events.map((event) => event.id).sort())

          const foreign = yield* raw(`${shop.baseUrl}/v1/payments/${payment.id}/timeline`, { headers: json(other.secret) })
          expect([foreign.status, foreign.json.error.code]).toEqual([404, "resource_missing"])
        }))
    }
  )
}
