import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { addIntervals, EventsRepository } from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing"
import { Effect, Fiber, Layer, TestClock, TestContext } from "effect"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, runJobs, serverLayer } from "./support/TestServer.js"

const DAY = 86_400_000
const MINUTE = 60_000
const iso = (millis: number) => new Date(millis).toISOString()

/**
 * The sandbox PSP's schedule at `millis` on its own clock (Effect's `TestClock`), then its webhooks
 * sent and applied as the worker does, on the real clock: the service learns only from those.
 */
const pspRunsAt = (millis: number) => Effect.zipRight(sandboxScheduleAt(millis), runJobs("sandbox-notifications", "apply-provider-events"))

/**
 * Only the sandbox's schedule at `millis` on Effect's `TestClock`. In a fiber of its own, awaited
 * rather than joined: the test clock must not stay with the test (its webhooks are signed on the real clock).
 */
const sandboxScheduleAt = (millis: number) =>
  Effect.forkDaemon(Effect.provide(
    Effect.zipRight(TestClock.setTime(millis), runJobs("sandbox-subscriptions")),
    TestContext.TestContext
  )).pipe(Effect.flatMap(Fiber.await), Effect.flatten, Effect.asVoid)

/** The webhooks the sandbox made about subscription `id`, oldest first, with whether they were sent. */
const sandboxWebhooksOf = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ id: string; payload: string }>`select id, payload from sandbox_notifications
      where payload like ${`%"reference":"${id}"%`} order by created_at_millis`).pipe(
      Effect.orDie,
      Effect.map((rows) => rows.map((row) => ({ id: row.id, body: JSON.parse(row.payload) })))
    )

/** Holds webhooks back (as if lost on the way), or lets them go again, in the order given. */
const hold = (ids: ReadonlyArray<string>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.forEach(ids, (id) => sql`update sandbox_notifications set sent_at_millis = 0 where id = ${id}`)).pipe(
    Effect.orDie
  )
const release = (ids: ReadonlyArray<string>) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      Effect.forEach(ids, (id, index) =>
        sql`update sandbox_notifications set sent_at_millis = null, lease_until_millis = 0,
        created_at_millis = ${index} where id = ${id}`)
  ).pipe(Effect.orDie)

for (const database of testDatabases()) {
  // The database layer again beside the server: the same instance, for reading the sandbox's own books.
  layer(Layer.merge(serverLayer(database.layer), database.layer), { excludeTestServices: true, timeout: "300 seconds" })(
    `native subscriptions (the sandbox runs the schedule) over HTTP on ${database.name}`,
    (it) => {
      const setup = (token: string) =>
        Effect.gen(function*() {
          const account = yield* merchant()
          const post = (path: string, body: object) =>
            raw(`${account.baseUrl}${path}`, {
              method: "POST",
              headers: json(account.secret, newKey()),
              body: JSON.stringify(body)
            })
          const get = (path: string) => raw(`${account.baseUrl}${path}`, { headers: json(account.secret) })
          const customer = (yield* post("/v1/customers", { email: "jenny@example.com", name: "Jenny Rosen" })).json
          const plan = (yield* post("/v1/plans", { amount: 1999, currency: "EUR", interval: "month" })).json
          const created = yield* post("/v1/subscriptions", {
            customer: customer.id,
            plan: plan.id,
            payment_method: token,
            engine: "native"
          })
          const id: string = created.json.id
          const subscription = Effect.map(get(`/v1/subscriptions/${id}`), (response) => response.json)
          /** Its invoices by period (ids made in the same millisecond do not order them). */
          const invoices = Effect.map(get(`/v1/invoices?subscription=${id}&limit=100`), (response) =>
            [...response.json.data].sort((a: any, b: any) => a.period_start.localeCompare(b.period_start)) as Array<any>)
          /** The types of the events about the subscription or its invoices, oldest first. */
          const events = Effect.map(
            Effect.flatMap(EventsRepository, (repository) =>
              repository.listRecent(account.tenant, 1000)),
            (all) =>
              all
                .filter((event) => {
                  const object = event.data.object as { id: string; subscription_id?: string }
                  return object.id === id || object.subscription_id === id
                })
                .map((event) => event.type)
                .reverse()
          )
          const start = new Date(created.json.current_period_start).getTime()
          /** The start of period `n` (0 the first), the anchor day kept. */
          const periodStart = (n: number) => addIntervals(start, "month", n)
          return { ...account, post, get, customer, plan, created, id, subscription, invoices, events, start, periodStart }
        })

      it.effect("bills a native monthly subscription over four periods from the sandbox's webhooks alone", () =>
        Effect.gen(function*() {
          const api = yield* setup("tok_visa")
          expect(api.created.status).toBe(201)
          expect(api.created.json).toMatchObject({
            object: "subscription",
            engine: "native",
            provider: "sandbox_a",
            status: "incomplete",
            latest_invoice: null
          })
          expect(api.created.json.provider_subscription_id).toMatch(/^sbsub_/)
          expect(api.created.json.current_period_end).toBe(iso(api.periodStart(1)))
          // Nothing moves until the PSP says so.
          yield* runJobs("apply-provider-events", "bill-subscriptions")
          expect((yield* api.subscription).status).toBe("incomplete")

          yield* pspRunsAt(api.start + MINUTE)
          const first = yield* api.subscription
          expect(first).toMatchObject({
            status: "active",
            current_period_start: iso(api.periodStart(0)),
            current_period_end: iso(api.periodStart(1))
          })
          expect(first.latest_invoice).toMatchObject({
            status: "paid",
            amount_due: 1999,
            amount_paid: 1999,
            currency: "EUR",
            attempt_count: 1,
            billing_reason: "subscription_create"
          })

          // Three more months on the sandbox's clock, a period at a time (the worker applies a batch of
          // webhooks concurrently, so news of one pass may be taken in any order): three more periods.
          for (const n of [1, 2, 3]) yield* pspRunsAt(api.periodStart(n) + MINUTE)
          const invoices = yield* api.invoices
          expect(invoices.map((invoice) => [invoice.period_start, invoice.period_end, invoice.status, invoice.amount_paid]))
            .toEqual([0, 1, 2, 3].map((n) => [iso(api.periodStart(n)), iso(api.periodStart(n + 1)), "paid", 1999]))
          expect(yield* api.subscription).toMatchObject({
            status: "active",
            current_period_start: iso(api.periodStart(3)),
            current_period_end: iso(api.periodStart(4))
          })
          const paidPeriod = ["invoice.created", "invoice.paid", "subscription.updated"]
          expect(yield* api.events).toEqual([
            "subscription.created",
            ...paidPeriod,
            ...paidPeriod,
            ...paidPeriod,
            ...paidPeriod
          ])
          // Once more at the same time: nothing is due, nothing is charged twice.
          yield* pspRunsAt(api.periodStart(3) + MINUTE)
          expect((yield* api.invoices).length).toBe(4)
        }))

      it.effect("a failed native renewal goes past_due, the sandbox's retries end unpaid; a retry that succeeds recovers", () =>
        Effect.gen(function*() {
          const api = yield* setup("tok_visa")
          yield* pspRunsAt(api.start + MINUTE)
          const declined = yield* api.post(`/v1/subscriptions/${api.id}`, { payment_method: "tok_chargeDeclined" })
          expect([declined.status, declined.json.payment_method]).toEqual([200, "tok_chargeDeclined"])

          const renewal = api.periodStart(1)
          yield* pspRunsAt(renewal + MINUTE)
          const pastDue = yield* api.subscription
          expect(pastDue).toMatchObject({
            status: "past_due",
            current_period_start: iso(renewal),
            current_period_end: iso(api.periodStart(2))
          })
          expect(pastDue.latest_invoice).toMatchObject({
            status: "open",
            attempt_count: 1,
            amount_paid: 0,
            next_payment_attempt: iso(renewal + DAY)
          })

          // The sandbox's own policy: 1, 3 and 5 days after the first failure, then unpaid.
          yield* pspRunsAt(renewal + DAY + MINUTE)
          yield* pspRunsAt(renewal + 3 * DAY + MINUTE)
          expect((yield* api.subscription).latest_invoice).toMatchObject({
            status: "open",
            attempt_count: 3,
            next_payment_attempt: iso(renewal + 5 * DAY)
          })
          yield* pspRunsAt(renewal + 10 * DAY)
          const unpaid = yield* api.subscription
          expect(unpaid.status).toBe("unpaid")
          expect(unpaid.latest_invoice).toMatchObject({ status: "uncollectible", attempt_count: 4, next_payment_attempt: null })
          expect(yield* api.events).toEqual([
            "subscription.created",
            "invoice.created",
            "invoice.paid",
            "subscription.updated",
            "subscription.updated", // the new card
            "invoice.created",
            "invoice.payment_failed",
            "subscription.past_due",
            "invoice.payment_failed",
            "invoice.payment_failed",
            "invoice.payment_failed",
            "invoice.marked_uncollectible",
            "subscription.unpaid"
          ])

          // Another one recovers: its card is fixed before the first retry.
          const other = yield* setup("tok_visa")
          yield* pspRunsAt(other.start + MINUTE)
          yield* other.post(`/v1/subscriptions/${other.id}`, { payment_method: "tok_insufficientFunds" })
          yield* pspRunsAt(other.periodStart(1) + MINUTE)
          expect((yield* other.subscription).status).toBe("past_due")
          yield* other.post(`/v1/subscriptions/${other.id}`, { payment_method: "tok_mastercard" })
          yield* pspRunsAt(other.periodStart(1) + DAY + MINUTE)
          const recovered = yield* other.subscription
          expect(recovered.status).toBe("active")
          expect(recovered.latest_invoice).toMatchObject({ status: "paid", attempt_count: 2, amount_paid: 1999 })
          expect((yield* other.events).slice(-5)).toEqual([
            "invoice.payment_failed",
            "subscription.past_due",
            "subscription.updated", // the new card
            "invoice.paid",
            "subscription.updated"
          ])
        }))

      it.effect("the same sandbox webhook twice, out of order and late changes nothing wrong", () =>
        Effect.gen(function*() {
          // Three periods paid, their news held back, then told newest first: the subscription follows
          // its newest period, and the late news of older ones only settles their invoices.
          const api = yield* setup("tok_visa")
          yield* sandboxScheduleAt(api.periodStart(2) + MINUTE)
          const paid = yield* sandboxWebhooksOf(api.id)
          expect(paid.map((webhook) => webhook.body.data.invoice.period_start)).toEqual([0, 1, 2].map(api.periodStart))
          yield* hold(paid.map((webhook) => webhook.id))
          yield* release([paid[2]!.id])
          yield* runJobs("sandbox-notifications", "apply-provider-events")
          const newest = yield* api.subscription
          expect(newest).toMatchObject({ status: "active", current_period_start: iso(api.periodStart(2)) })
          yield* release([paid[1]!.id, paid[0]!.id])
          yield* runJobs("sandbox-notifications", "apply-provider-events")
          const settled = yield* api.subscription
          expect(settled).toMatchObject({ status: "active", current_period_start: iso(api.periodStart(2)) })
          expect(settled.latest_invoice.id).toBe(newest.latest_invoice.id)
          expect((yield* api.invoices).map((invoice) => [invoice.period_start, invoice.status]))
            .toEqual([0, 1, 2].map((n) => [iso(api.periodStart(n)), "paid"]))

          // A renewal failing four times: the last news (unpaid) arrives first, the earlier attempts after it.
          yield* api.post(`/v1/subscriptions/${api.id}`, { payment_method: "tok_chargeDeclined" })
          yield* sandboxScheduleAt(api.periodStart(3) + 10 * DAY)
          const failed = (yield* sandboxWebhooksOf(api.id)).slice(3)
          expect(failed.map((webhook) => [webhook.body.data.invoice.attempt, webhook.body.data.subscription.status]))
            .toEqual([[1, "past_due"], [2, "past_due"], [3, "past_due"], [4, "unpaid"]])
          yield* hold(failed.map((webhook) => webhook.id))
          yield* release([failed[3]!.id])
          yield* runJobs("sandbox-notifications", "apply-provider-events")
          const unpaid = yield* api.subscription
          expect(unpaid.status).toBe("unpaid")
          expect(unpaid.latest_invoice).toMatchObject({ status: "uncollectible", attempt_count: 4 })
          const eventsThen = yield* api.events

          yield* release([failed[2]!.id, failed[0]!.id, failed[1]!.id])
          yield* runJobs("sandbox-notifications", "apply-provider-events")
          // And every webhook once more, as a PSP redelivers: duplicates, all of them.
          yield* release([...paid, ...failed].map((webhook) => webhook.id))
          yield* runJobs("sandbox-notifications", "apply-provider-events")

          const after = yield* api.subscription
          expect(after.status).toBe("unpaid")
          expect(after.latest_invoice).toMatchObject({ status: "uncollectible", attempt_count: 4, next_payment_attempt: null })
          expect(after.current_period_start).toBe(iso(api.periodStart(3)))
          expect((yield* api.invoices).length).toBe(4)
          expect(yield* api.events).toEqual(eventsThen)
        }))

      it.effect("on a test clock: a year of native billing in one advance, then dunning to unpaid; the webhooks after it change nothing", () =>
        Effect.gen(function*() {
          const api = yield* setup("tok_visa")
          const clock = (yield* api.post("/v1/test_helpers/test_clocks", { frozen_time: "2027-01-31T10:00:00.000Z" })).json
          const customer = (yield* api.post("/v1/customers", { email: "jenny@example.com", test_clock: clock.id })).json
          const created = yield* api.post("/v1/subscriptions", {
            customer: customer.id,
            plan: api.plan.id,
            payment_method: "tok_visa",
            engine: "native"
          })
          // The sandbox's clock for this subscription is the test clock's: the first period is charged at once.
          expect(created.status).toBe(201)
          expect(created.json).toMatchObject({
            engine: "native",
            status: "active",
            test_clock: clock.id,
            current_period_start: "2027-01-31T10:00:00.000Z",
            current_period_end: "2027-02-28T10:00:00.000Z"
          })
          expect(created.json.latest_invoice).toMatchObject({ status: "paid", amount_paid: 1999 })
          const id = created.json.id
          const invoicesOf = Effect.map(
            api.get(`/v1/invoices?subscription=${id}&limit=100`),
            (response) => [...response.json.data].sort((a: any, b: any) => a.period_start.localeCompare(b.period_start)) as Array<any>
          )

          const advanced = yield* api.post(`/v1/test_helpers/test_clocks/${clock.id}/advance`, { frozen_time: "2028-01-15T00:00:00.000Z" })
          expect([advanced.status, advanced.json.status]).toEqual([200, "ready"])
          const year = yield* invoicesOf
          expect(year.map((invoice) => [invoice.period_start, invoice.status, invoice.amount_paid])).toEqual([
            "2027-01-31",
            "2027-02-28",
            "2027-03-31",
            "2027-04-30",
            "2027-05-31",
            "2027-06-30",
            "2027-07-31",
            "2027-08-31",
            "2027-09-30",
            "2027-10-31",
            "2027-11-30",
            "2027-12-31"
          ].map((day) => [`${day}T10:00:00.000Z`, "paid", 1999]))

          yield* api.post(`/v1/subscriptions/${id}`, { payment_method: "tok_chargeDeclined" })
          yield* api.post(`/v1/test_helpers/test_clocks/${clock.id}/advance`, { frozen_time: "2028-02-01T00:00:00.000Z" })
          const pastDue = (yield* api.get(`/v1/subscriptions/${id}`)).json
          expect(pastDue.status).toBe("past_due")
          expect(pastDue.latest_invoice).toMatchObject({
            status: "open",
            attempt_count: 1,
            next_payment_attempt: "2028-02-01T10:00:00.000Z"
          })
          yield* api.post(`/v1/test_helpers/test_clocks/${clock.id}/advance`, { frozen_time: "2028-02-10T00:00:00.000Z" })
          const unpaid = (yield* api.get(`/v1/subscriptions/${id}`)).json
          expect(unpaid.status).toBe("unpaid")
          expect(unpaid.latest_invoice).toMatchObject({ status: "uncollectible", attempt_count: 4 })
          const invoices = yield* invoicesOf
          const subscriptionThen = unpaid

          // The sandbox's webhooks about all of it come after: every one is old news.
          yield* runJobs("sandbox-subscriptions", "sandbox-notifications", "apply-provider-events")
          expect((yield* sandboxWebhooksOf(id)).length).toBe(12 + 4)
          expect(yield* invoicesOf).toEqual(invoices)
          expect((yield* api.get(`/v1/subscriptions/${id}`)).json).toEqual(subscriptionThen)
        }))

      it.effect("cancel now and at period end go through the sandbox; a PSP without subscriptions answers 422", () =>
        Effect.gen(function*() {
          const now = yield* setup("tok_visa")
          yield* pspRunsAt(now.start + MINUTE)
          const canceled = yield* now.post(`/v1/subscriptions/${now.id}/cancel`, {})
          expect([canceled.status, canceled.json.status]).toEqual([200, "canceled"])
          yield* pspRunsAt(now.periodStart(2))
          expect((yield* now.invoices).length).toBe(1)
          expect((yield* now.subscription).status).toBe("canceled")

          const atEnd = yield* setup("tok_visa")
          yield* pspRunsAt(atEnd.start + MINUTE)
          const flagged = yield* atEnd.post(`/v1/subscriptions/${atEnd.id}/cancel`, { at_period_end: true })
          expect([flagged.status, flagged.json.status, flagged.json.cancel_at_period_end]).toEqual([200, "active", true])
          yield* pspRunsAt(atEnd.periodStart(1) + MINUTE)
          expect(yield* atEnd.subscription).toMatchObject({ status: "canceled", cancel_at_period_end: false })
          expect((yield* atEnd.invoices).length).toBe(1)
          const planChange = yield* atEnd.post(`/v1/subscriptions/${atEnd.id}`, { plan: atEnd.plan.id })
          expect(planChange.status).toBe(409)

          const adyen = yield* now.post("/v1/provider-connections", {
            name: "adyen_eu",
            type: "adyen",
            credentials: { api_key: "AQE_unused", merchant_account: "ShopECOM" },
            base_url: "http://127.0.0.1:9"
          })
          expect(adyen.status).toBe(201)
          const refused = yield* now.post("/v1/subscriptions", {
            customer: now.customer.id,
            plan: now.plan.id,
            payment_method: "tok_visa",
            engine: "native",
            provider: "adyen_eu"
          })
          expect([refused.status, refused.json.error.code, refused.json.error.param])
            .toEqual([422, "engine_not_supported", "engine"])
        }))
    }
  )
}
