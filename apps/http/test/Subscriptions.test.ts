import { expect, layer } from "@effect/vitest"
import { EventsRepository } from "@orchestrator/core/events/EventsRepository"
import { testDatabases } from "@orchestrator/testing/TestDatabases"
import { Effect } from "effect"
import { json, newKey } from "./support/Fixtures.js"
import { startReceiver } from "./support/Receiver.js"
import { deliverWebhooks, merchant, raw, runJobs, serverLayer } from "./support/TestServer.js"

const DAY = 86_400_000
const iso = (text: string) => new Date(text).toISOString()
const plusDays = (text: string, days: number) => new Date(new Date(text).getTime() + days * DAY).toISOString()

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "300 seconds" })(
    `subscriptions over HTTP on ${database.name}`,
    (it) => {
      /** A merchant with helpers to call the API as it. */
      const setup = Effect.gen(function*() {
        const account = yield* merchant()
        const post = (path: string, body: object, key: string | null = newKey()) =>
          raw(`${account.baseUrl}${path}`, {
            method: "POST",
            headers: json(account.secret, key ?? undefined),
            body: JSON.stringify(body)
          })
        const get = (path: string) => raw(`${account.baseUrl}${path}`, { headers: json(account.secret) })
        const clock = (frozenTime: string) =>
          Effect.map(post("/v1/test_helpers/test_clocks", { frozen_time: frozenTime }), (response) => response.json)
        const customerOn = (clockId: string | null) =>
          Effect.map(
            post("/v1/customers", {
              email: "jenny@example.com",
              name: "Jenny Rosen",
              ...(clockId === null ? {} : { test_clock: clockId })
            }),
            (response) => response.json
          )
        const newPlan = (body: object) => Effect.map(post("/v1/plans", body), (response) => response.json)
        const subscribe = (body: object) => post("/v1/subscriptions", body)
        const advance = (clockId: string, to: string) =>
          post(`/v1/test_helpers/test_clocks/${clockId}/advance`, { frozen_time: to })
        const invoicesOf = (subscriptionId: string) =>
          Effect.map(get(`/v1/invoices?subscription=${subscriptionId}&limit=100`), (response) =>
            [...response.json.data].reverse() as Array<any>)
        /** The types of the events about one subscription or its invoices, oldest first. */
        const eventsOf = (subscriptionId: string) =>
          Effect.map(
            Effect.flatMap(EventsRepository, (events) => events.listRecent(account.tenant, 1000)),
            (events) =>
              events
                .filter((event) => {
                  const object = event.data.object as { id: string; subscription_id?: string; object: string }
                  return object.id === subscriptionId || object.subscription_id === subscriptionId
                })
                .map((event) => event.type)
                .reverse()
          )
        return { ...account, post, get, clock, customerOn, newPlan, subscribe, advance, invoicesOf, eventsOf }
      })

      /** A customer on a clock at `start` with a monthly plan of `amount`, subscribed with `token`. */
      const monthly = (
        start: string,
        options: { amount?: number; token?: string; trialDays?: number; returnUrl?: string } = {}
      ) =>
        Effect.gen(function*() {
          const api = yield* setup
          const clock = yield* api.clock(start)
          const customer = yield* api.customerOn(clock.id)
          const plan = yield* api.newPlan({
            amount: options.amount ?? 1999,
            currency: "EUR",
            interval: "month",
            ...(options.trialDays === undefined ? {} : { trial_days: options.trialDays })
          })
          const created = yield* api.subscribe({
            customer: customer.id,
            plan: plan.id,
            payment_method: options.token ?? "tok_visa",
            ...(options.returnUrl === undefined ? {} : { return_url: options.returnUrl })
          })
          return { ...api, clock, customer, plan, created }
        })

      it.effect("bills a monthly subscription for twelve periods in one advance, anchor day kept", () =>
        Effect.gen(function*() {
          const { advance, clock, created, get, invoicesOf } = yield* monthly("2027-01-31T10:00:00.000Z")
          expect(created.status).toBe(201)
          expect(created.json).toMatchObject({
            object: "subscription",
            status: "active",
            engine: "orchestrator",
            provider: "sandbox_a",
            current_period_start: "2027-01-31T10:00:00.000Z",
            current_period_end: "2027-02-28T10:00:00.000Z",
            cancel_at_period_end: false,
            test_clock: clock.id
          })
          expect(created.json.latest_invoice).toMatchObject({ status: "paid", amount_due: 1999, amount_paid: 1999 })
          expect(created.json.latest_invoice.payment).toMatchObject({ status: "succeeded", amount: 1999 })

          const advanced = yield* advance(clock.id, "2028-01-15T00:00:00.000Z")
          expect([advanced.status, advanced.json.status, advanced.json.frozen_time])
            .toEqual([200, "ready", "2028-01-15T00:00:00.000Z"])
          // The worker sees the clock's time too: nothing more is due by it.
          yield* runJobs("bill-subscriptions")

          const invoices = yield* invoicesOf(created.json.id)
          expect(invoices.map((invoice) => invoice.period_start)).toEqual([
            "2027-01-31", "2027-02-28", "2027-03-31", "2027-04-30", "2027-05-31", "2027-06-30",
            "2027-07-31", "2027-08-31", "2027-09-30", "2027-10-31", "2027-11-30", "2027-12-31"
          ].map((day) => `${day}T10:00:00.000Z`))
          expect(invoices.every((invoice) =>
            invoice.status === "paid" && invoice.amount_paid === 1999 && invoice.payment.status === "succeeded"
          )).toBe(true)
          expect(new Set(invoices.map((invoice) => invoice.payment.id)).size).toBe(12)
          // The payments are real: each made at its period's start and listed with the others.
          expect(invoices[5].payment.created_at).toBe("2027-06-30T10:00:00.000Z")
          expect((yield* get(`/v1/payments/${invoices[11].payment.id}`)).json.off_session).toBe(true)

          const after = (yield* get(`/v1/subscriptions/${created.json.id}`)).json
          expect([after.status, after.current_period_start, after.current_period_end])
            .toEqual(["active", "2027-12-31T10:00:00.000Z", "2028-01-31T10:00:00.000Z"])
        }))

      it.effect("a trial ends in the first paid period", () =>
        Effect.gen(function*() {
          const { advance, clock, created, eventsOf, invoicesOf } = yield* monthly("2027-03-01T00:00:00.000Z", {
            trialDays: 14
          })
          expect(created.json).toMatchObject({
            status: "trialing",
            trial_end: "2027-03-15T00:00:00.000Z",
            current_period_end: "2027-03-15T00:00:00.000Z",
            latest_invoice: null
          })
          yield* advance(clock.id, "2027-03-16T00:00:00.000Z")
          const invoices = yield* invoicesOf(created.json.id)
          expect(invoices.map((invoice) => [invoice.status, invoice.period_start, invoice.period_end])).toEqual([
            ["paid", "2027-03-15T00:00:00.000Z", "2027-04-15T00:00:00.000Z"]
          ])
          expect(yield* eventsOf(created.json.id)).toEqual([
            "subscription.created",
            "invoice.created",
            "invoice.paid",
            "subscription.updated"
          ])
        }))

      it.effect("a first charge needing 3D Secure waits incomplete, then turns active once completed", () =>
        Effect.gen(function*() {
          const { customerOn, get, newPlan, subscribe } = yield* setup
          const customer = yield* customerOn(null)
          const gold = yield* newPlan({ amount: 5000, currency: "EUR", interval: "year" })
          const created = yield* subscribe({
            customer: customer.id,
            plan: gold.id,
            payment_method: "tok_threeDSecureRequired",
            return_url: "https://shop.example/welcome"
          })
          expect([created.status, created.json.status]).toEqual([201, "incomplete"])
          const nextAction = created.json.latest_invoice.payment.next_action
          expect(nextAction.type).toBe("redirect")

          const completed = yield* raw(`${nextAction.url}/complete`, { method: "POST" })
          yield* raw(completed.headers.get("location")!)
          yield* runJobs("dispatch-events")
          const settled = (yield* get(`/v1/subscriptions/${created.json.id}`)).json
          expect([settled.status, settled.latest_invoice.status, settled.latest_invoice.payment.status])
            .toEqual(["active", "paid", "succeeded"])
        }))

      it.effect("canceled while its first charge waits for 3D Secure: the payment is canceled too, so completing it charges nothing", () =>
        Effect.gen(function*() {
          const { customerOn, get, newPlan, post, subscribe } = yield* setup
          const plan = yield* newPlan({ amount: 1999, currency: "EUR", interval: "month" })
          const created = yield* subscribe({
            customer: (yield* customerOn(null)).id,
            plan: plan.id,
            payment_method: "tok_threeDSecureRequired",
            return_url: "https://shop.example/welcome"
          })
          const nextAction = created.json.latest_invoice.payment.next_action
          expect((yield* post(`/v1/subscriptions/${created.json.id}/cancel`, {})).json.status).toBe("canceled")
          const after = (yield* get(`/v1/subscriptions/${created.json.id}`)).json
          expect([after.latest_invoice.status, after.latest_invoice.payment.status]).toEqual(["void", "canceled"])
          // The customer finishes the challenge anyway: nothing is captured, nothing is paid.
          const completed = yield* raw(`${nextAction.url}/complete`, { method: "POST" })
          const back = completed.headers.get("location")
          if (back !== null) yield* raw(back)
          yield* runJobs("dispatch-events")
          const settled = (yield* get(`/v1/subscriptions/${created.json.id}`)).json
          expect([settled.status, settled.latest_invoice.status, settled.latest_invoice.payment.status, settled.latest_invoice.payment.amount_captured])
            .toEqual(["canceled", "void", "canceled", 0])
        }))

      it.effect("a test clock stays where billing's dates can follow it: years past 9000 are refused, and the clock stays ready", () =>
        Effect.gen(function*() {
          const { advance, clock, get, post } = yield* setup
          const late = yield* post("/v1/test_helpers/test_clocks", { frozen_time: "9999-11-01T00:00:00.000Z" })
          expect([late.status, late.json.error.code, late.json.error.param]).toEqual([422, "clock_time_out_of_range", "frozen_time"])
          const near = yield* clock("8999-12-01T00:00:00.000Z")
          const beyond = yield* advance(near.id, "9001-01-02T00:00:00.000Z")
          expect([beyond.status, beyond.json.error.code]).toEqual([422, "clock_time_out_of_range"])
          expect((yield* get(`/v1/test_helpers/test_clocks/${near.id}`)).json)
            .toMatchObject({ frozen_time: "8999-12-01T00:00:00.000Z", status: "ready" })
        }))

      it.effect("an incomplete subscription expires after 23 hours; its invoice is voided", () =>
        Effect.gen(function*() {
          const { advance, clock, created, get } = yield* monthly("2027-05-01T00:00:00.000Z", {
            token: "tok_threeDSecureRequired",
            returnUrl: "https://shop.example/welcome"
          })
          expect(created.json.status).toBe("incomplete")
          yield* advance(clock.id, "2027-05-01T22:00:00.000Z")
          expect((yield* get(`/v1/subscriptions/${created.json.id}`)).json.status).toBe("incomplete")
          yield* advance(clock.id, "2027-05-02T00:00:00.000Z")
          const expired = (yield* get(`/v1/subscriptions/${created.json.id}`)).json
          expect([expired.status, expired.latest_invoice.status]).toEqual(["incomplete_expired", "void"])
        }))

      it.effect("a first charge declined outright answers 402 with the incomplete subscription", () =>
        Effect.gen(function*() {
          const { created } = yield* monthly("2027-05-01T00:00:00.000Z", { token: "tok_chargeDeclined" })
          expect([created.status, created.json.error.type, created.json.error.code])
            .toEqual([402, "payment_error", "card_declined"])
          expect(created.json.error.subscription).toMatchObject({ object: "subscription", status: "incomplete" })
          expect(created.json.error.subscription.latest_invoice.payment.status).toBe("failed")
        }))

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

      it.effect("cancels now (then refuses any change with 409) and at the end of the period", () =>
        Effect.gen(function*() {
          const api = yield* monthly("2027-01-10T00:00:00.000Z")
          const now = yield* api.post(`/v1/subscriptions/${api.created.json.id}/cancel`, {})
          expect([now.status, now.json.status, now.json.canceled_at]).toEqual([200, "canceled", "2027-01-10T00:00:00.000Z"])
          const again = yield* api.post(`/v1/subscriptions/${api.created.json.id}/cancel`, {})
          expect([again.status, again.json.error.code]).toEqual([409, "subscription_final"])
          const change = yield* api.post(`/v1/subscriptions/${api.created.json.id}`, { metadata: { a: "b" } })
          expect(change.status).toBe(409)
          expect((yield* api.eventsOf(api.created.json.id)).at(-1)).toBe("subscription.canceled")

          const later = yield* api.subscribe({ customer: api.customer.id, plan: api.plan.id, payment_method: "tok_visa" })
          const scheduled = yield* api.post(`/v1/subscriptions/${later.json.id}/cancel`, { at_period_end: true })
          expect([scheduled.json.status, scheduled.json.cancel_at_period_end]).toEqual(["active", true])
          yield* api.advance(api.clock.id, "2027-02-09T00:00:00.000Z")
          expect((yield* api.get(`/v1/subscriptions/${later.json.id}`)).json.status).toBe("active")
          yield* api.advance(api.clock.id, "2027-02-11T00:00:00.000Z")
          const ended = (yield* api.get(`/v1/subscriptions/${later.json.id}`)).json
          expect([ended.status, ended.canceled_at]).toEqual(["canceled", "2027-02-10T00:00:00.000Z"])
          expect((yield* api.invoicesOf(later.json.id)).length).toBe(1)
        }))

      it.effect("a plan change shows pending_update and applies from the next period only", () =>
        Effect.gen(function*() {
          const api = yield* monthly("2027-01-10T00:00:00.000Z", { amount: 1000 })
          const premium = yield* api.newPlan({ amount: 2500, currency: "EUR", interval: "month" })
          const changed = yield* api.post(`/v1/subscriptions/${api.created.json.id}`, { plan: premium.id })
          expect(changed.json).toMatchObject({
            status: "active",
            plan_id: api.plan.id,
            pending_update: { plan_id: premium.id, effective_at: "2027-02-10T00:00:00.000Z" }
          })
          yield* api.advance(api.clock.id, "2027-03-11T00:00:00.000Z")
          const invoices = yield* api.invoicesOf(api.created.json.id)
          expect(invoices.map((invoice) => [invoice.period_start, invoice.amount_due, invoice.plan_id])).toEqual([
            ["2027-01-10T00:00:00.000Z", 1000, api.plan.id],
            ["2027-02-10T00:00:00.000Z", 2500, premium.id],
            ["2027-03-10T00:00:00.000Z", 2500, premium.id]
          ])
          const after = (yield* api.get(`/v1/subscriptions/${api.created.json.id}`)).json
          expect([after.plan_id, after.pending_update]).toEqual([premium.id, null])

          const euro = yield* api.newPlan({ amount: 2500, currency: "USD", interval: "month" })
          const mismatch = yield* api.post(`/v1/subscriptions/${api.created.json.id}`, { plan: euro.id })
          expect([mismatch.status, mismatch.json.error.code]).toEqual([422, "currency_mismatch"])
        }))

      it.effect("answers 4xx for what cannot be done: unknown customer, a clock moved back", () =>
        Effect.gen(function*() {
          const api = yield* setup
          const clock = yield* api.clock("2027-01-01T00:00:00.000Z")
          const customer = yield* api.customerOn(clock.id)
          const plan = yield* api.newPlan({ amount: 100, currency: "EUR", interval: "week", interval_count: 2 })
          expect(plan).toMatchObject({ object: "plan", interval: "week", interval_count: 2, trial_days: null })
          const noReturn = yield* api.subscribe({ customer: customer.id, plan: plan.id, payment_method: "tok_threeDSecureRequired" })
          // The seed's CreateSubscription has no return_url: the challenge waits for the customer.
          expect([noReturn.status, noReturn.json.status]).toEqual([201, "incomplete"])
          expect(noReturn.json.latest_invoice.payment.next_action.type).toBe("redirect")
          expect((yield* api.get(`/v1/customers/${customer.id}`)).json).toMatchObject({
            object: "customer",
            email: "jenny@example.com",
            name: "Jenny Rosen",
            test_clock: clock.id
          })
          expect((yield* api.get("/v1/customers?email=jenny@example.com")).json.data.map((each: { id: string }) => each.id))
            .toEqual([customer.id])
          expect((yield* api.get(`/v1/plans/${plan.id}`)).json).toEqual(plan)
          const unknown = yield* api.subscribe({ customer: "cus_nope", plan: plan.id, payment_method: "tok_visa" })
          expect([unknown.status, unknown.json.error.param]).toEqual([422, "customer"])
          const noKey = yield* api.post("/v1/subscriptions", { customer: customer.id, plan: plan.id, payment_method: "tok_visa" }, null)
          expect(noKey.status).toBe(400)
          const back = yield* api.advance(clock.id, "2026-12-31T00:00:00.000Z")
          expect([back.status, back.json.error.code]).toEqual([422, "clock_time_not_forward"])
          const badPlan = yield* api.post("/v1/plans", { amount: 100, currency: "EUR", interval: "fortnight" })
          expect(badPlan.status).toBe(400)
          expect((yield* api.get(`/v1/test_helpers/test_clocks/${clock.id}`)).json).toMatchObject({
            object: "test_helpers.test_clock",
            frozen_time: "2027-01-01T00:00:00.000Z",
            status: "ready"
          })
          expect((yield* api.get("/v1/test_helpers/test_clocks")).json.data.map((each: { id: string }) => each.id)).toEqual([clock.id])
          const tooFar = yield* api.advance(clock.id, "2029-06-01T00:00:00.000Z")
          expect([tooFar.status, tooFar.json.error.code]).toEqual([422, "clock_advance_too_far"])
          const deleted = yield* raw(`${api.baseUrl}/v1/test_helpers/test_clocks/${clock.id}`, {
            method: "DELETE",
            headers: json(api.secret)
          })
          expect([deleted.status, (yield* api.get(`/v1/test_helpers/test_clocks/${clock.id}`)).status]).toEqual([200, 404])
          expect((yield* api.get("/v1/subscriptions/sub_missing")).status).toBe(404)
          expect((yield* api.get("/v1/invoices/in_missing")).status).toBe(404)
        }))
    }
  )
}
