import { describe, expect, it, layer } from "@effect/vitest"
import { PublicUrls, TestClocksRepository } from "@orchestrator/core"
import { Database } from "@orchestrator/sql"
import { durableTestDatabases, testDatabases } from "@orchestrator/testing"
import { type Context, DateTime, Effect, Fiber, Layer } from "effect"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { merchant, raw, runJobs, serverLayer } from "./support/TestServer.js"

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

/** The milliseconds an id's first ten characters after its prefix encode (see `makeId`). */
const timeOfId = (id: string) => [...id.slice(id.indexOf("_") + 1, id.indexOf("_") + 11)].reduce((millis, char) => millis * 32 + ALPHABET.indexOf(char), 0)

/** A merchant's test-mode API, spoken over `baseUrl` (either of two servers on one database). */
const apiOf = (secret: string) => (baseUrl: string) => {
  const post = (path: string, body: object) => raw(`${baseUrl}${path}`, { method: "POST", headers: json(secret, newKey()), body: JSON.stringify(body) })
  const get = (path: string) => raw(`${baseUrl}${path}`, { headers: json(secret) })
  const remove = (path: string) => raw(`${baseUrl}${path}`, { method: "DELETE", headers: json(secret) })
  /** Every item of a list, following `starting_after`. */
  const all = (path: string) =>
    Effect.gen(function*() {
      const items: Array<any> = []
      for (;;) {
        const after = items.length === 0 ? "" : `&starting_after=${items[items.length - 1].id}`
        const page = yield* get(`${path}${path.includes("?") ? "&" : "?"}limit=100${after}`)
        expect(page.status).toBe(200)
        items.push(...page.json.data)
        if (!page.json.has_more) return items
      }
    })
  const advance = (clockId: string, to: string) => post(`/v1/test_helpers/test_clocks/${clockId}/advance`, { frozen_time: to })
  return { post, get, remove, all, advance }
}

/** A clock at `start`, a customer on it, subscribed to a plan of `interval` (paid with tok_visa). */
const subscribedOnClock = (api: ReturnType<ReturnType<typeof apiOf>>, start: string, interval: "day" | "month") =>
  Effect.gen(function*() {
    const clock = (yield* api.post("/v1/test_helpers/test_clocks", { frozen_time: start })).json
    const customer = (yield* api.post("/v1/customers", { email: "jenny@example.com", test_clock: clock.id })).json
    const plan = (yield* api.post("/v1/plans", { amount: 100, currency: "EUR", interval })).json
    const subscription = yield* api.post("/v1/subscriptions", { customer: customer.id, plan: plan.id, payment_method: "tok_visa" })
    expect([subscription.status, subscription.json.status]).toEqual([201, "active"])
    return { clock, customer, plan, subscription: subscription.json }
  })

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `test clocks and ids on ${database.name}`,
    (it) => {
      it.effect("ids made after an advance decode to the real time, for every organization; billed objects keep the clock's time and its id", () =>
        Effect.gen(function*() {
          const account = yield* merchant()
          const api = apiOf(account.secret)(account.baseUrl)
          const before = Date.now()
          const { clock, subscription } = yield* subscribedOnClock(api, "2027-01-01T00:00:00.000Z", "month")
          const advanced = yield* api.advance(clock.id, "2028-02-07T00:00:00.000Z")
          expect([advanced.status, advanced.json.status]).toEqual([200, "ready"])

          // The invoices are on the clock's time, and say which clock; their ids are on the real time.
          const invoices = yield* api.all(`/v1/invoices?subscription=${subscription.id}`)
          expect(invoices).toHaveLength(14)
          expect(invoices[0].created_at).toBe("2028-02-01T00:00:00.000Z")
          expect(invoices.every((invoice) => invoice.test_clock === clock.id)).toBe(true)
          const after = Date.now()
          for (const id of [...invoices.map((invoice) => invoice.id), ...invoices.map((invoice) => invoice.payment.id)]) {
            expect(timeOfId(id)).toBeGreaterThanOrEqual(before)
            expect(timeOfId(id)).toBeLessThanOrEqual(after)
          }

          // A plain payment afterwards, here and in another organization: its id is of today, not of 2028.
          const other = yield* merchant()
          for (const secret of [account.secret, other.secret]) {
            const payment = yield* raw(`${account.baseUrl}/v1/payments`, {
              method: "POST",
              headers: json(secret, newKey()),
              body: JSON.stringify(paymentWith("tok_visa"))
            })
            expect(payment.status).toBe(201)
            expect(timeOfId(payment.json.id)).toBeGreaterThanOrEqual(before)
            expect(timeOfId(payment.json.id)).toBeLessThanOrEqual(Date.now())
            expect(Date.parse(payment.json.created_at)).toBeLessThanOrEqual(Date.now())
          }
        }))

      it.effect("lists filter by test_clock: a clock's subscriptions, invoices and payments only", () =>
        Effect.gen(function*() {
          const account = yield* merchant()
          const api = apiOf(account.secret)(account.baseUrl)
          const first = yield* subscribedOnClock(api, "2027-01-01T00:00:00.000Z", "month")
          const second = yield* subscribedOnClock(api, "2027-06-01T00:00:00.000Z", "month")
          const realTime = (yield* api.post("/v1/customers", { email: "real@example.com" })).json
          const plain = yield* api.post("/v1/subscriptions", {
            customer: realTime.id,
            plan: first.plan.id,
            payment_method: "tok_visa"
          })
          expect([plain.status, plain.json.test_clock]).toEqual([201, null])
          expect((yield* api.advance(first.clock.id, "2027-04-15T00:00:00.000Z")).json.status).toBe("ready")

          const subscriptions = yield* api.all(`/v1/subscriptions?test_clock=${first.clock.id}`)
          expect(subscriptions.map((each) => each.id)).toEqual([first.subscription.id])
          const invoices = yield* api.all(`/v1/invoices?test_clock=${first.clock.id}`)
          expect(invoices.map((each) => each.period_start)).toEqual(
            ["2027-04-01", "2027-03-01", "2027-02-01", "2027-01-01"].map((day) => `${day}T00:00:00.000Z`)
          )
          expect(new Set(invoices.map((each) => each.subscription_id))).toEqual(new Set([first.subscription.id]))
          expect((yield* api.all(`/v1/invoices?test_clock=${second.clock.id}`)).map((each) => each.subscription_id))
            .toEqual([second.subscription.id])
          // Without the filter, every invoice is listed, the real-time one included.
          expect((yield* api.all("/v1/invoices")).map((each) => each.subscription_id)).toContain(plain.json.id)
          expect((yield* api.get("/v1/invoices?test_clock=clock_unknown")).json.data).toEqual([])
          // The clock's payments say so, and only they are listed under it.
          const payments = yield* api.all(`/v1/payments?test_clock=${first.clock.id}`)
          expect(payments.map((each) => each.id).sort()).toEqual(invoices.map((each) => each.payment.id).sort())
          expect(payments.every((each) => each.metadata.test_clock === first.clock.id)).toBe(true)
          expect((yield* api.get(`/v1/payments/${plain.json.latest_invoice.payment.id}`)).json.metadata.test_clock).toBeUndefined()
        }))

      it.effect("an advance whose process died is finished by the worker, to the time it was asked for", () =>
        Effect.gen(function*() {
          const account = yield* merchant()
          const api = apiOf(account.secret)(account.baseUrl)
          const { clock, subscription } = yield* subscribedOnClock(api, "2027-01-01T00:00:00.000Z", "month")
          // A process took the clock for an advance and died before its first step: its lease ran out.
          const clocks = yield* TestClocksRepository
          const real = yield* DateTime.now
          const started = yield* clocks.startAdvance(account.tenant, clock.id, DateTime.unsafeMake("2027-06-15T00:00:00.000Z"), {
            now: real,
            until: DateTime.subtract(real, { seconds: 1 })
          })
          expect(started._tag).toBe("Started")
          expect((yield* api.get(`/v1/test_helpers/test_clocks/${clock.id}`)).json.status).toBe("advancing")

          expect(yield* runJobs("finish-test-clock-advances")).toEqual([1])
          expect((yield* api.get(`/v1/test_helpers/test_clocks/${clock.id}`)).json)
            .toMatchObject({ frozen_time: "2027-06-15T00:00:00.000Z", status: "ready" })
          const invoices = yield* api.all(`/v1/invoices?subscription=${subscription.id}`)
          expect(invoices.map((each) => each.period_start)).toEqual(
            ["06", "05", "04", "03", "02", "01"].map((month) => `2027-${month}-01T00:00:00.000Z`)
          )
        }))

      it.effect("a clock never moves back, and its status is ready after an advance", () =>
        Effect.gen(function*() {
          const account = yield* merchant()
          const api = apiOf(account.secret)(account.baseUrl)
          const { clock } = yield* subscribedOnClock(api, "2027-01-01T00:00:00.000Z", "month")
          expect((yield* api.advance(clock.id, "2027-03-01T00:00:00.000Z")).json.status).toBe("ready")
          for (const to of ["2027-02-01T00:00:00.000Z", "2027-03-01T00:00:00.000Z"]) {
            const back = yield* api.advance(clock.id, to)
            expect([back.status, back.json.error.code, back.json.error.param]).toEqual([422, "clock_time_not_forward", "frozen_time"])
          }
          expect((yield* api.get(`/v1/test_helpers/test_clocks/${clock.id}`)).json)
            .toMatchObject({ frozen_time: "2027-03-01T00:00:00.000Z", status: "ready" })
        }))
    }
  )
}

/**
 * Two servers over one PostgreSQL database stand for two processes (two HTTP processes, or one and
 * a worker): nothing in memory is shared, only the database.
 */
const twoProcesses = (config: Database.DatabaseConfig) =>
  Effect.gen(function*() {
    const build = Effect.flatMap(Layer.build(Layer.fresh(serverLayer(Database.layer(config)))), (context) =>
      Effect.map(Effect.provide(PublicUrls, context), ({ base: baseUrl }) => ({ context, baseUrl })))
    const one = yield* build
    const two = yield* build
    return [one, two] as const
  })

const inProcess = <A, E>(process: { readonly context: Context.Context<any> }, effect: Effect.Effect<A, E, any>) =>
  Effect.provide(effect, process.context) as Effect.Effect<A, E>

/** Polls until `check` holds (a concurrent advance reached a state), for at most `tries` × 20 ms. */
const eventually = <E>(check: Effect.Effect<boolean, E>, tries = 1500) =>
  Effect.gen(function*() {
    for (let i = 0; i < tries; i++) {
      if (yield* check) return
      yield* Effect.sleep("20 millis")
    }
    expect.fail("the expected state was never reached")
  })

const postgres = durableTestDatabases().find((each) => each.name === "postgres")

// PostgreSQL only (`DATABASE_URL`): PGlite is embedded in one process.
describe.skipIf(postgres === undefined)("test clock advances across processes", () => {
  // Only read once a test runs, which the skip guarantees is with PostgreSQL.
  const database = postgres!
  it.live(
    "a second advance from another process answers 409 while one runs; ready means every invoice is made; the clock never moves back",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const [one, two] = yield* twoProcesses(yield* database.create)
        const account = yield* inProcess(one, merchant())
        const onOne = apiOf(account.secret)(one.baseUrl)
        const onTwo = apiOf(account.secret)(two.baseUrl)
        const { clock } = yield* subscribedOnClock(onOne, "2027-01-01T00:00:00.000Z", "day")

        const year = yield* Effect.fork(onOne.advance(clock.id, "2028-01-01T00:00:00.000Z"))
        yield* eventually(Effect.map(onTwo.get(`/v1/test_helpers/test_clocks/${clock.id}`), (seen) => seen.json.status === "advancing"))
        // The other process refuses to move the clock meanwhile, and its worker leaves the clock's billing alone.
        const meanwhile = yield* onTwo.advance(clock.id, "2027-03-01T00:00:00.000Z")
        expect([meanwhile.status, meanwhile.json.error.code, meanwhile.json.error.type])
          .toEqual([409, "test_clock_advancing", "invalid_request_error"])
        const sameProcess = yield* onOne.advance(clock.id, "2027-02-01T00:00:00.000Z")
        expect([sameProcess.status, sameProcess.json.error.code]).toEqual([409, "test_clock_advancing"])
        yield* inProcess(two, runJobs("bill-subscriptions"))

        const done = yield* Fiber.join(year)
        expect([done.status, done.json.status, done.json.frozen_time]).toEqual([200, "ready", "2028-01-01T00:00:00.000Z"])
        // Ready means done: every day's invoice of the year is there at once, paid, each once.
        const invoices = yield* onTwo.all(`/v1/invoices?test_clock=${clock.id}`)
        expect(invoices).toHaveLength(366)
        expect(new Set(invoices.map((invoice) => invoice.period_start)).size).toBe(366)
        expect(invoices[0].period_start).toBe("2028-01-01T00:00:00.000Z")
        expect(invoices.every((invoice) => invoice.status === "paid")).toBe(true)

        // The earlier time, asked for again now, cannot move the clock back.
        const back = yield* onTwo.advance(clock.id, "2027-03-01T00:00:00.000Z")
        expect([back.status, back.json.error.code]).toEqual([422, "clock_time_not_forward"])
        expect((yield* onOne.get(`/v1/test_helpers/test_clocks/${clock.id}`)).json)
          .toMatchObject({ frozen_time: "2028-01-01T00:00:00.000Z", status: "ready" })
      })),
    { timeout: 300_000 }
  )

  it.live(
    "deleting a clock during an advance stops the advance: it answers 404, never ready, and nothing more is billed",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const [one, two] = yield* twoProcesses(yield* database.create)
        const account = yield* inProcess(one, merchant())
        const onOne = apiOf(account.secret)(one.baseUrl)
        const onTwo = apiOf(account.secret)(two.baseUrl)
        const { clock, subscription } = yield* subscribedOnClock(onOne, "2027-01-01T00:00:00.000Z", "day")

        const year = yield* Effect.fork(onOne.advance(clock.id, "2028-01-01T00:00:00.000Z"))
        const invoiceCount = Effect.map(
          onTwo.get(`/v1/invoices?subscription=${subscription.id}&limit=100`),
          (listed) => listed.json.data.length as number
        )
        yield* eventually(Effect.map(invoiceCount, (count) => count >= 5))
        const deleted = yield* onTwo.remove(`/v1/test_helpers/test_clocks/${clock.id}`)
        expect(deleted.status).toBe(200)

        const answer = yield* Fiber.join(year)
        expect([answer.status, answer.json.error?.code]).toEqual([404, "resource_missing"])
        expect((yield* onOne.get(`/v1/test_helpers/test_clocks/${clock.id}`)).status).toBe(404)
        const stopped = yield* invoiceCount
        expect(stopped).toBeLessThan(100)
        yield* inProcess(two, runJobs("bill-subscriptions"))
        yield* inProcess(one, runJobs("bill-subscriptions"))
        expect(yield* invoiceCount).toBe(stopped)
      })),
    { timeout: 300_000 }
  )
})
