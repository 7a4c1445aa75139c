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

/**
 * A merchant's Stripe payment disputed (its `charge.dispute.created` applied) and answered with
 * `evidence`: the dispute `under_review`, as it waits for the bank.
 */
const disputeUnderReview = (connectionName: string, amount: number, evidence: object) =>
  Effect.gen(function*() {
    const stripe = yield* fakeStripe
    const { baseUrl, secret } = yield* merchant()
    const call = apiCaller(baseUrl, secret)
    const connection = yield* call("/v1/provider-connections", {
      ...fakePspConnection("stripe", { name: connectionName, url: stripe.url }),
      webhook_secret: WEBHOOK_SECRET
    })
    expect(connection.status).toBe(201)
    const paid = yield* call("/v1/payments", {
      amount,
      currency: "EUR",
      payment_method: { type: "card", token: "pm_card_visa" },
      provider: connectionName
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
    yield* call(`/v1/disputes/${opened.id}/evidence`, evidence)
    const submitted = yield* call(`/v1/disputes/${opened.id}/submit`, {})
    expect([submitted.status, submitted.json.status]).toEqual([200, "under_review"])
    /** How many times the service read the dispute from Stripe. */
    const reads = () => stripe.exchanges.filter((exchange) => exchange.method === "GET" && exchange.url === `/v1/disputes/${dispute.id}`).length
    return { call, paid, opened, stripeDispute: stripe.disputes.get(dispute.id)!, reads }
  })

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `disputes whose outcome never came by webhook, on ${database.name}`,
    (it) => {
      it.scoped("a week after the evidence with no news, the worker reads the dispute from Stripe and applies the outcome, once", () =>
        Effect.gen(function*() {
          const { call, opened, paid, reads, stripeDispute } = yield* disputeUnderReview("stripe_quiet", 4200, {
            product_description: "A tent, delivered",
            customer_email: "ada@example.com"
          })
          // The bank decides for the merchant; Stripe's webhook saying so is lost on the way.
          stripeDispute.status = "won"

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
          const { call, opened, reads } = yield* disputeUnderReview("stripe_slow", 1000, { product_description: "A lamp" })

          yield* reconcileAfter(8)
          yield* reconcileAfter(9)
          expect([reads(), (yield* call(`/v1/disputes/${opened.id}`)).json.status]).toEqual([1, "under_review"])
          yield* reconcileAfter(16)
          expect(reads()).toBe(2)
        }))
    }
  )
}
