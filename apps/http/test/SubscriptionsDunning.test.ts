import { expect, layer } from "@effect/vitest"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json, newKey } from "./support/Fixtures.js"
import { startReceiver } from "./support/Receiver.js"
import { iso, monthly, plusDays } from "./support/SubscriptionsApi.js"
import { deliverWebhooks, raw, serverLayer } from "./support/TestServer.js"

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "300 seconds" })(
    `subscriptions over HTTP on ${database.name}`,
    (it) => {
      it.scoped("a failed renewal goes past_due, is retried after 1, 3, 5 and 7 days, then unpaid, each with its webhook", () =>
        Effect.gen(function*() {
          const { advance, clock, created, eventsOf, get, invoicesOf, post } = yield* monthly("2027-01-10T00:00:00.000Z")
          const id = created.json.id
          const receiver = yield* startReceiver
          const endpoint = yield* post("/v1/webhooks/endpoints", {
            url: receiver.url,
            enabled_events: ["subscription.past_due", "subscription.unpaid", "invoice.payment_failed"]
          })
          expect(endpoint.status).toBe(201)
          yield* post(`/v1/subscriptions/${id}`, { payment_method: "tok_chargeDeclined" })

          yield* advance(clock.id, "2027-02-10T12:00:00.000Z")
          const pastDue = (yield* get(`/v1/subscriptions/${id}`)).json
          expect([pastDue.status, pastDue.current_period_start]).toEqual(["past_due", "2027-02-10T00:00:00.000Z"])
          expect([pastDue.latest_invoice.attempt_count, pastDue.latest_invoice.next_payment_attempt])
            .toEqual([1, iso("2027-02-11T00:00:00.000Z")])

          yield* advance(clock.id, "2027-02-16T00:00:00.000Z")
          const retrying = (yield* get(`/v1/subscriptions/${id}`)).json.latest_invoice
          expect([retrying.attempt_count, retrying.next_payment_attempt]).toEqual([4, plusDays("2027-02-10T00:00:00.000Z", 7)])

          yield* advance(clock.id, "2027-03-20T00:00:00.000Z")
          const unpaid = (yield* get(`/v1/subscriptions/${id}`)).json
          expect([unpaid.status, unpaid.latest_invoice.status, unpaid.latest_invoice.attempt_count])
            .toEqual(["unpaid", "uncollectible", 5])
          // Unpaid: no more periods are billed.
          expect((yield* invoicesOf(id)).length).toBe(2)
          expect(yield* eventsOf(id)).toEqual([
            "subscription.created",
            "invoice.created",
            "invoice.paid",
            "subscription.updated",
            "subscription.updated",
            "invoice.created",
            "invoice.payment_failed",
            "subscription.past_due",
            "invoice.payment_failed",
            "invoice.payment_failed",
            "invoice.payment_failed",
            "invoice.payment_failed",
            "invoice.marked_uncollectible",
            "subscription.unpaid"
          ])
          yield* deliverWebhooks
          const delivered = receiver.received.map((request) => JSON.parse(request.body.toString()))
          expect(delivered.map((event) => event.type).sort()).toEqual([
            ...Array(5).fill("invoice.payment_failed"),
            "subscription.past_due",
            "subscription.unpaid"
          ])
          expect(delivered.find((event) => event.type === "subscription.unpaid").data.object)
            .toMatchObject({ id, status: "unpaid", latest_invoice: { status: "uncollectible", attempt_count: 5 } })
        }))

      it.effect("recovers when a dunning retry succeeds, and bills the next period on time", () =>
        Effect.gen(function*() {
          const { advance, clock, created, get, invoicesOf, post } = yield* monthly("2027-01-10T00:00:00.000Z")
          const id = created.json.id
          yield* post(`/v1/subscriptions/${id}`, { payment_method: "tok_insufficientFunds" })
          yield* advance(clock.id, "2027-02-10T01:00:00.000Z")
          expect((yield* get(`/v1/subscriptions/${id}`)).json.status).toBe("past_due")

          yield* post(`/v1/subscriptions/${id}`, { payment_method: "tok_visa" })
          yield* advance(clock.id, "2027-02-12T00:00:00.000Z")
          const recovered = (yield* get(`/v1/subscriptions/${id}`)).json
          expect([recovered.status, recovered.latest_invoice.status, recovered.latest_invoice.attempt_count])
            .toEqual(["active", "paid", 2])
          expect(recovered.current_period_end).toBe("2027-03-10T00:00:00.000Z")

          yield* advance(clock.id, "2027-03-11T00:00:00.000Z")
          const invoices = yield* invoicesOf(id)
          expect(invoices.map((invoice) => [invoice.period_start, invoice.status])).toEqual([
            ["2027-01-10T00:00:00.000Z", "paid"],
            ["2027-02-10T00:00:00.000Z", "paid"],
            ["2027-03-10T00:00:00.000Z", "paid"]
          ])
        }))

      it.effect("a dunning retry is routed afresh: with its PSP down, it is paid on another", () =>
        Effect.gen(function*() {
          const { advance, baseUrl, clock, created, get, secret } = yield* monthly("2027-01-10T00:00:00.000Z")
          const id = created.json.id
          const send = (method: string, path: string, body: object) =>
            raw(`${baseUrl}${path}`, { method, headers: json(secret, newKey()), body: JSON.stringify(body) })
          const connections = (yield* get("/v1/provider-connections")).json.data
          const first = connections.find((connection: { name: string }) => connection.name === "sandbox_a")
          expect((yield* send("PATCH", `/v1/provider-connections/${first.id}`, { settings: { outage: true } })).status).toBe(200)

          yield* advance(clock.id, "2027-02-10T01:00:00.000Z")
          const pastDue = (yield* get(`/v1/subscriptions/${id}`)).json
          expect([pastDue.status, pastDue.latest_invoice.payment.provider, pastDue.latest_invoice.payment.status])
            .toEqual(["past_due", "sandbox_a", "failed"])

          expect((yield* send("PATCH", "/v1/organization", { default_provider: "sandbox_b" })).status).toBe(200)
          yield* advance(clock.id, "2027-02-11T01:00:00.000Z")
          const recovered = (yield* get(`/v1/subscriptions/${id}`)).json
          expect([recovered.status, recovered.latest_invoice.status, recovered.latest_invoice.payment.provider])
            .toEqual(["active", "paid", "sandbox_b"])
        }))
    }
  )
}
