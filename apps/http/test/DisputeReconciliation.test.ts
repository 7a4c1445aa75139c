import { expect, layer } from "@effect/vitest"
import { fakeStripe, testDatabases } from "@orchestrator/testing"
import { Effect, TestClock, TestContext } from "effect"
import { apiCaller, fakePspConnection } from "./support/Fixtures.js"
import { merchant, raw, runJobs, serverLayer } from "./support/TestServer.js"

const WEBHOOK_SECRET = "whsec_dispute_reconciliation"
const DAY = 86_400_000

/** The worker's dispute reconciliation as it would run `days` from now (Effect's `TestClock`). */
const reconcileAfter = (days: number) =>
  Effect.zipRight(TestClock.setTime(Date.now() + days * DAY), runJobs("reconcile-disputes")).pipe(Effect.provide(TestContext.TestContext))

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `disputes whose outcome never came by webhook, on ${database.name}`,
    (it) => {
      it.scoped("a week after the evidence with no news, the worker reads the dispute from Stripe and applies the outcome, once", () =>
        Effect.gen(function*() {
          const stripe = yield* fakeStripe
          const { baseUrl, secret } = yield* merchant()
          const call = apiCaller(baseUrl, secret)
          const connection = yield* call("/v1/provider-connections", {
            ...fakePspConnection("stripe", { name: "stripe_quiet", url: stripe.url }),
            webhook_secret: WEBHOOK_SECRET
          })
          expect(connection.status).toBe(201)
          const paid = yield* call("/v1/payments", {
            amount: 4200,
            currency: "EUR",
            payment_method: { type: "card", token: "pm_card_visa" },
            provider: "stripe_quiet"
          })
          expect(paid.json.status).toBe("succeeded")
          const dispute = stripe.openDispute(paid.json.provider_payment_id)
          const event = stripe.signedEvent(WEBHOOK_SECRET, "charge.dispute.created", stripe.disputeObject(dispute.id), Math.floor(Date.now() / 1000))
          const intake = yield* raw(`${baseUrl}/v1/provider-webhooks/${connection.json.id}`, {
            method: "POST",
            headers: { "content-type": "application/json", "stripe-signature": event.signature },
            body: event.body
          })
          expect(intake.status).toBe(200)
          yield* runJobs("apply-provider-events")
          const [opened] = (yield* call(`/v1/disputes?payment_id=${paid.json.id}`)).json.data
          yield* call(`/v1/disputes/${opened.id}/evidence`, { product_description: "A tent, delivered", customer_email: "ada@example.com" })
          const submitted = yield* call(`/v1/disputes/${opened.id}/submit`, {})
          expect([submitted.status, submitted.json.status]).toEqual([200, "under_review"])

          // The bank decides for the merchant; Stripe's webhook saying so is lost on the way.
          stripe.disputes.get(dispute.id)!.status = "won"
          const reads = () => stripe.exchanges.filter((exchange) => exchange.method === "GET" && exchange.url === `/v1/disputes/${dispute.id}`).length

          // Not yet a week of silence: nothing is read.
          yield* runJobs("reconcile-disputes")
          yield* reconcileAfter(6)
          expect([reads(), (yield* call(`/v1/disputes/${opened.id}`)).json.status]).toEqual([0, "under_review"])

          yield* reconcileAfter(8)
          const closed = (yield* call(`/v1/disputes/${opened.id}`)).json
          expect([reads(), closed.status]).toEqual([1, "won"])
          const events = (yield* call(`/v1/events?limit=100`)).json.data
            .filter((found: { data: { object: { id: string } } }) => found.data.object.id === opened.id)
            .map((found: { type: string }) => found.type)
          expect(events).toContain("dispute.closed")
          expect((yield* call(`/v1/payments/${paid.json.id}`)).json).toMatchObject({ status: "succeeded", disputed: true })

          // Closed: never read again.
          yield* reconcileAfter(20)
          expect(reads()).toBe(1)
        }))

      it.scoped("a dispute Stripe still has under review is read at most once a week", () =>
        Effect.gen(function*() {
          const stripe = yield* fakeStripe
          const { baseUrl, secret } = yield* merchant()
          const call = apiCaller(baseUrl, secret)
          const connection = yield* call("/v1/provider-connections", {
            ...fakePspConnection("stripe", { name: "stripe_slow", url: stripe.url }),
            webhook_secret: WEBHOOK_SECRET
          })
          const paid = yield* call("/v1/payments", {
            amount: 1000,
            currency: "EUR",
            payment_method: { type: "card", token: "pm_card_visa" },
            provider: "stripe_slow"
          })
          const dispute = stripe.openDispute(paid.json.provider_payment_id)
          const event = stripe.signedEvent(WEBHOOK_SECRET, "charge.dispute.created", stripe.disputeObject(dispute.id), Math.floor(Date.now() / 1000))
          yield* raw(`${baseUrl}/v1/provider-webhooks/${connection.json.id}`, {
            method: "POST",
            headers: { "content-type": "application/json", "stripe-signature": event.signature },
            body: event.body
          })
          yield* runJobs("apply-provider-events")
          const [opened] = (yield* call(`/v1/disputes?payment_id=${paid.json.id}`)).json.data
          yield* call(`/v1/disputes/${opened.id}/evidence`, { product_description: "A lamp" })
          expect((yield* call(`/v1/disputes/${opened.id}/submit`, {})).json.status).toBe("under_review")
          const reads = () => stripe.exchanges.filter((exchange) => exchange.method === "GET" && exchange.url === `/v1/disputes/${dispute.id}`).length

          yield* reconcileAfter(8)
          yield* reconcileAfter(9)
          expect([reads(), (yield* call(`/v1/disputes/${opened.id}`)).json.status]).toEqual([1, "under_review"])
          yield* reconcileAfter(16)
          expect(reads()).toBe(2)
        }))
    }
  )
}
