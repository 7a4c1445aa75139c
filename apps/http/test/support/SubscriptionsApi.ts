import { EventsRepository } from "@orchestrator/core"
import { Effect } from "effect"
import { json, newKey } from "./Fixtures.js"
import { merchant, raw } from "./TestServer.js"

/** A merchant calling the subscriptions API over HTTP, and a monthly subscription on a test clock. */
export const DAY = 86_400_000
export const iso = (text: string) => new Date(text).toISOString()
export const plusDays = (text: string, days: number) => new Date(new Date(text).getTime() + days * DAY).toISOString()

/** A merchant with helpers to call the API as it. */
export const setup = Effect.gen(function*() {
  const account = yield* merchant()
  const post = (path: string, body: object, key: string | null = newKey()) =>
    raw(`${account.baseUrl}${path}`, {
      method: "POST",
      headers: json(account.secret, key ?? undefined),
      body: JSON.stringify(body)
    })
  const get = (path: string) => raw(`${account.baseUrl}${path}`, { headers: json(account.secret) })
  const clock = (frozenTime: string) => Effect.map(post("/v1/test_helpers/test_clocks", { frozen_time: frozenTime }), (response) => response.json)
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
  const advance = (clockId: string, to: string) => post(`/v1/test_helpers/test_clocks/${clockId}/advance`, { frozen_time: to })
  const invoicesOf = (subscriptionId: string) =>
    Effect.map(get(`/v1/invoices?subscription=${subscriptionId}&limit=100`), (response) => [...response.json.data].reverse() as Array<any>)
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
export const monthly = (
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
