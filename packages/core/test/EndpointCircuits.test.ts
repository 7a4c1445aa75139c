import { describe, expect, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Fiber, TestClock } from "effect"
import type { Currency } from "../src/domain/Currency.js"
import type { CreateWebhookEndpoint } from "../src/domain/events/WebhookEndpointRequests.js"
import type { Tenant } from "../src/domain/Tenant.js"
import { coolDownAfter, endpointCap, HEALTHY, nextHealth, sameHealth, verdictOf, WebhookDeliveryPolicy } from "../src/domain/webhooks/EndpointHealth.js"
import { EventDispatch } from "../src/features/events/EventDispatch.js"
import { Events } from "../src/features/events/Events.js"
import { Payments } from "../src/features/payments/Payments.js"
import { WebhookDeliveries } from "../src/features/webhooks/WebhookDeliveries.js"
import { WebhookEndpoints } from "../src/features/webhooks/WebhookEndpoints.js"
import { answer } from "./support/ScriptedReceiver.js"
import { createTenant, makeTestServices } from "./support/TestServices.js"

const pay = (tenant: Tenant) =>
  Effect.flatMap(
    Payments,
    (payments) => payments.create(tenant, { amount: 1250, currency: "EUR" as Currency, payment_method: { type: "card", token: "tok_ok" } })
  )

const endpoint = (tenant: Tenant, url: string, input: Partial<CreateWebhookEndpoint> = {}) =>
  Effect.flatMap(WebhookEndpoints, (endpoints) => endpoints.create(tenant, { url, enabled_events: ["payment.succeeded"], ...input }))

const dispatch = Effect.flatMap(EventDispatch, (dispatcher) => dispatcher.dispatchDue)
const deliverDue = Effect.flatMap(WebhookDeliveries, (deliveries) => deliveries.deliverDue)

const deliveriesTo = (tenant: Tenant, endpointId: string) =>
  Effect.flatMap(
    WebhookDeliveries,
    (deliveries) => Effect.map(deliveries.list(tenant, { endpoint_id: endpointId }, { limit: 100, startingAfter: undefined }), (page) => page.data)
  )

/**
 * Lets forked passes run until `holds`, a turn of the event loop at a time (up to a few thousand:
 * a guard, not a measure); the TestClock stands still meanwhile.
 */
const until = (holds: () => boolean, what: () => string = () => "") =>
  Effect.gen(function*() {
    for (let i = 0; i < 5_000 && !holds(); i++) yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 1)))
    if (!holds()) console.log("until failed:", what())
    expect(holds()).toBe(true)
  })

describe("an endpoint's health, pure", () => {
  const policy = WebhookDeliveryPolicy.defaultValue()
  const at = DateTime.unsafeMake("2026-03-01T00:00:00Z")

  it("opens the circuit at the third strained failure in a row, for 30 s, doubling after each failure up to 30 min", () => {
    let health = HEALTHY
    for (let i = 1; i <= 2; i++) health = nextHealth(health, "strained", at, policy).health
    expect(health.circuitOpenUntil).toBeNull()
    health = nextHealth(health, "strained", at, policy).health
    expect(health.circuitOpenUntil).toEqual(DateTime.add(at, { seconds: 30 }))
    expect([4, 5, 6, 20].map((failures) => Duration.toSeconds(coolDownAfter(failures, policy)))).toEqual([60, 120, 240, 1_800])
    expect(nextHealth(health, "slow", at, policy).health).toEqual(HEALTHY)
  })

  it("a 4xx counts toward disabling but never opens the circuit; a failed trial reopens it", () => {
    let health = HEALTHY
    for (let i = 1; i <= 5; i++) health = nextHealth(health, "failed", at, policy).health
    expect([health.failureCount, health.circuitOpenUntil, health.failingSince]).toEqual([5, null, at])
    const open = { ...health, circuitOpenUntil: DateTime.add(at, { seconds: -1 }) }
    expect(nextHealth(open, "failed", at, policy).health.circuitOpenUntil).not.toBeNull()
  })

  it("a 2xx within 1 s doubles what it may have in flight, from 2 up to 32; a slow 2xx or a failure takes it back to 2", () => {
    const cap = (health: typeof HEALTHY) => endpointCap({ status: "active", health }, at, policy.perEndpoint)
    let health = HEALTHY
    const caps = [cap(health)]
    for (let i = 0; i < 5; i++) {
      health = nextHealth(health, verdictOf(answer(200), 30, policy), at, policy).health
      caps.push(cap(health))
    }
    expect(caps).toEqual([2, 4, 8, 16, 32, 32])
    expect(verdictOf(answer(204), 1_000, policy)).toBe("slow")
    expect(cap(nextHealth(health, "slow", at, policy).health)).toBe(2)
    expect(cap(nextHealth(health, verdictOf(answer(500), 5, policy), at, policy).health)).toBe(2)
    expect(cap(nextHealth(health, verdictOf(undefined, 10_000, policy), at, policy).health)).toBe(2)
    // Once it has earned the most, a quick answer changes nothing: no write.
    expect(sameHealth(nextHealth(health, "succeeded", at, policy).health, health)).toBe(true)
  })

  it("disables once every attempt has failed for 72 hours, not a moment before", () => {
    const failing = { failureCount: 40, failingSince: at, circuitOpenUntil: null, concurrency: null }
    expect(nextHealth(failing, "failed", DateTime.add(at, { hours: 72, millis: -1 }), policy).disable).toBe(false)
    expect(nextHealth(failing, "failed", DateTime.add(at, { hours: 72 }), policy).disable).toBe(true)
  })
})

describe("webhook endpoints isolated from each other (TestClock)", () => {
  it.effect("a receiver that never answers holds 2 workers; the other endpoint's deliveries all go out meanwhile, each on its own", () => {
    const services = makeTestServices()
    services.receiver.reactWith((request) => request.url.includes("hangs") ? "hang" : answer(200))
    return Effect.gen(function*() {
      const tenant = yield* createTenant
      const hanging = yield* endpoint(tenant, "https://hangs.example/hooks")
      const healthy = yield* endpoint(tenant, "https://healthy.example/hooks")
      for (let i = 0; i < 6; i++) yield* pay(tenant)
      yield* dispatch
      const to = (host: string) => services.receiver.received.filter((request) => request.url.includes(host)).length

      const pass = yield* Effect.fork(deliverDue)
      // Every delivery to the healthy endpoint arrives (and is recorded) while two to the other hang.
      yield* until(() => to("healthy") === 6, () => `healthy ${to("healthy")} hangs ${to("hangs")}`)
      expect(to("hangs")).toBe(2)
      let statuses: ReadonlyArray<string> = []
      yield* Effect.gen(function*() {
        statuses = (yield* deliveriesTo(tenant, healthy.id)).map((delivery) => delivery.status)
        if (statuses.some((status) => status !== "succeeded")) yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 1)))
      }).pipe(Effect.repeat({ until: () => statuses.every((status) => status === "succeeded"), times: 5_000 }))
      expect(statuses).toEqual(Array(6).fill("succeeded"))
      expect((yield* deliveriesTo(tenant, hanging.id)).every((delivery) => delivery.attempt_count === 0)).toBe(true)

      // Their 10 s pass: the next two go out. When those fail too, the third strained failure in a
      // row has opened the circuit: nothing more is claimed for it, and the pass ends.
      yield* TestClock.adjust("10 seconds")
      yield* until(() => to("hangs") === 4, () => `hangs ${to("hangs")}`)
      yield* TestClock.adjust("10 seconds")
      expect(yield* Fiber.join(pass)).toBe(6 + 4)
      expect(to("hangs")).toBe(4)
      const waiting = yield* deliveriesTo(tenant, hanging.id)
      expect(waiting.map((delivery) => delivery.attempt_count).sort()).toEqual([0, 0, 1, 1, 1, 1])
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("an open circuit keeps its deliveries waiting unclaimed; one trial after the cool-down, and its success sends the rest at once", () => {
    const services = makeTestServices()
    let up = false
    services.receiver.reactWith(() => up ? answer(200) : answer(503))
    return Effect.gen(function*() {
      const tenant = yield* createTenant
      const flaky = yield* endpoint(tenant, "https://flaky.example/hooks")
      for (let i = 0; i < 5; i++) yield* pay(tenant)
      yield* dispatch
      // One at a time here: the third 503 in a row opens the circuit for 30 s.
      const first = yield* deliverDue
      expect(first).toBe(3)
      const failing = yield* Effect.flatMap(WebhookEndpoints, (endpoints) => endpoints.retrieve(tenant, flaky.id))
      expect([failing.status, failing.failing_since]).toEqual(["active", expect.anything()])
      // The two never attempted wait: no worker takes them while the circuit is open.
      yield* TestClock.adjust("29 seconds")
      expect(yield* deliverDue).toBe(0)
      expect(services.receiver.received).toHaveLength(first)

      // After the cool-down one trial goes out; it fails, and the circuit stays open twice as long.
      yield* TestClock.adjust("2 seconds")
      expect(yield* deliverDue).toBe(1)
      yield* TestClock.adjust("59 seconds")
      expect(yield* deliverDue).toBe(0)
      up = true
      yield* TestClock.adjust("2 seconds")
      // This trial (the other delivery never attempted) succeeds and closes the circuit: what came due
      // meanwhile goes out in the same pass (the three whose 1-minute retry has passed, perhaps the failed trial's).
      expect(yield* deliverDue).toBeGreaterThanOrEqual(1 + 3)
      yield* TestClock.adjust("10 seconds")
      yield* deliverDue
      expect((yield* deliveriesTo(tenant, flaky.id)).map((delivery) => delivery.status)).toEqual(Array(5).fill("succeeded"))
    }).pipe(
      // One attempt in flight to an endpoint, so that the attempts before the circuit opens are counted exactly.
      Effect.provideService(WebhookDeliveryPolicy, { ...WebhookDeliveryPolicy.defaultValue(), perEndpoint: 1 }),
      Effect.provide(services.layer)
    )
  })

  it.effect("a resend asked for while the circuit is open goes out at once, as the circuit's trial", () => {
    const services = makeTestServices()
    let up = false
    services.receiver.reactWith(() => up ? answer(200) : answer(503))
    return Effect.gen(function*() {
      const tenant = yield* createTenant
      const flaky = yield* endpoint(tenant, "https://flaky.example/hooks")
      for (let i = 0; i < 3; i++) yield* pay(tenant)
      yield* dispatch
      yield* deliverDue
      const waiting = yield* deliveriesTo(tenant, flaky.id)
      expect(waiting.map((delivery) => delivery.attempt_count)).toEqual([1, 1, 1])
      // The receiver is fixed; its circuit would keep it waiting for its cool-down, and a retry for a minute.
      up = true
      yield* TestClock.adjust("5 seconds")
      expect(yield* deliverDue).toBe(0)
      yield* Effect.flatMap(WebhookDeliveries, (deliveries) => deliveries.resend(tenant, waiting[0]!.id))
      expect(yield* deliverDue).toBe(1)
      const resent = yield* Effect.flatMap(WebhookDeliveries, (deliveries) => deliveries.retrieve(tenant, waiting[0]!.id))
      expect([resent.status, resent.attempt_count]).toEqual(["succeeded", 2])
      const recovered = yield* Effect.flatMap(WebhookEndpoints, (endpoints) => endpoints.retrieve(tenant, flaky.id))
      expect(recovered.failing_since).toBeNull()
    }).pipe(
      // One attempt in flight to an endpoint, so that the attempts before the circuit opens are counted exactly.
      Effect.provideService(WebhookDeliveryPolicy, { ...WebhookDeliveryPolicy.defaultValue(), perEndpoint: 1 }),
      Effect.provide(services.layer)
    )
  })

  it.effect("an endpoint that failed every attempt for 3 days is disabled with webhook_endpoint.disabled, sent to the others; enabling it again starts afresh", () => {
    const services = makeTestServices()
    services.receiver.reactWith((request) => request.url.includes("broken") ? answer(404) : answer(200))
    return Effect.gen(function*() {
      const tenant = yield* createTenant
      const broken = yield* endpoint(tenant, "https://broken.example/hooks")
      yield* endpoint(tenant, "https://ops.example/hooks", { enabled_events: ["webhook_endpoint.disabled"] })
      yield* pay(tenant)
      yield* dispatch
      yield* deliverDue
      const since = (yield* Effect.flatMap(WebhookEndpoints, (endpoints) => endpoints.retrieve(tenant, broken.id))).failing_since!

      // Its delivery's retries fail for 70 hours: still active, failing since the first attempt.
      for (let hour = 0; hour < 70; hour++) {
        yield* TestClock.adjust("1 hour")
        yield* deliverDue
      }
      const stillActive = yield* Effect.flatMap(WebhookEndpoints, (endpoints) => endpoints.retrieve(tenant, broken.id))
      expect([stillActive.status, stillActive.failing_since]).toEqual(["active", since])

      // A new event's delivery fails past 72 hours of failures: the endpoint is disabled.
      yield* TestClock.adjust("3 hours")
      yield* pay(tenant)
      yield* dispatch
      yield* deliverDue
      const disabled = yield* Effect.flatMap(WebhookEndpoints, (endpoints) => endpoints.retrieve(tenant, broken.id))
      expect([disabled.status, disabled.failing_since]).toEqual(["disabled", since])
      const events = yield* Effect.flatMap(
        Events,
        (log) => log.list(tenant, { type: "webhook_endpoint.disabled", createdGte: undefined, createdLte: undefined }, { limit: 10, startingAfter: undefined })
      )
      expect(events.data.map((event) => [event.type, event.data.object.id])).toEqual([["webhook_endpoint.disabled", broken.id]])
      // The event reaches the merchant's other endpoint; the disabled one's deliveries end exhausted.
      yield* dispatch
      yield* deliverDue
      // Its deliveries, due again later, are attempted without sending anything, and exhausted.
      yield* TestClock.adjust("25 hours")
      yield* deliverDue
      const toOps = services.receiver.received.filter((request) => request.url.includes("ops"))
      expect(toOps.map((request) => JSON.parse(new TextDecoder().decode(request.body)).type)).toEqual(["webhook_endpoint.disabled"])
      expect((yield* deliveriesTo(tenant, broken.id)).map((delivery) => delivery.status)).toEqual(["exhausted", "exhausted"])

      const enabled = yield* Effect.flatMap(WebhookEndpoints, (endpoints) => endpoints.update(tenant, broken.id, { status: "active" }))
      expect([enabled.status, enabled.failing_since]).toEqual(["active", null])
    }).pipe(Effect.provide(services.layer))
  })
})
