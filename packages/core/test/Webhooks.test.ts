import { describe, expect, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Fiber, TestClock } from "effect"
import { createHmac, timingSafeEqual } from "node:crypto"
import type { Currency } from "../src/domain/Currency.js"
import type { CreateWebhookEndpoint } from "../src/domain/events/WebhookEndpointRequests.js"
import type { Tenant } from "../src/domain/Tenant.js"
import { RETRY_DELAYS } from "../src/domain/webhooks/DeliverySchedule.js"
import { WebhookDeliveryPolicy } from "../src/domain/webhooks/EndpointHealth.js"
import { EventDispatch } from "../src/features/events/EventDispatch.js"
import { Payments } from "../src/features/payments/Payments.js"
import { WebhookDeliveries } from "../src/features/webhooks/WebhookDeliveries.js"
import { WebhookEndpoints } from "../src/features/webhooks/WebhookEndpoints.js"
import { WebhookDeliveriesRepository } from "../src/ports/WebhookDeliveriesRepository.js"
import type { WebhookRequest } from "../src/ports/WebhookSender.js"
import { answer, refused } from "./support/ScriptedReceiver.js"
import { createTenant, makeTestServices } from "./support/TestServices.js"

/**
 * The seed's receiver rules, implemented here from its text alone: the header is
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "{t}.{raw body}">`, verified on the exact bytes, and a
 * timestamp more than 300 s away from now is refused.
 */
const verifiedBy = (secret: string, request: WebhookRequest, nowSeconds: number) => {
  const header = request.headers["service-signature"] ?? ""
  const parts = header.split(",").map((part) => part.split("=") as [string, string])
  const t = Number(parts.find(([name]) => name === "t")?.[1])
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > 300) return false
  const expected = createHmac("sha256", secret).update(`${t}.`).update(request.body).digest()
  return parts.some(([name, value]) => name === "v1" && value.length === expected.length * 2 && timingSafeEqual(Buffer.from(value, "hex"), expected))
}

const pay = (tenant: Tenant) =>
  Effect.flatMap(
    Payments,
    (payments) => payments.create(tenant, { amount: 1250, currency: "EUR" as Currency, payment_method: { type: "card", token: "tok_ok" } })
  )

/** Hands new events to the fan-out, then attempts what is due: one tick of the worker. */
const tick = Effect.gen(function*() {
  yield* (yield* EventDispatch).dispatchDue
  return yield* (yield* WebhookDeliveries).deliverDue
})

const endpoint = (tenant: Tenant, input: Partial<CreateWebhookEndpoint> = {}) =>
  Effect.flatMap(
    WebhookEndpoints,
    (endpoints) => endpoints.create(tenant, { url: "https://merchant.example/hooks", enabled_events: ["payment.succeeded"], ...input })
  )

const deliveriesOf = (tenant: Tenant) =>
  Effect.flatMap(WebhookDeliveries, (deliveries) => Effect.map(deliveries.list(tenant, {}, { limit: 100, startingAfter: undefined }), (page) => page.data))

describe("webhook deliveries", () => {
  it.effect("a receiver that always fails is tried at 0, 1 m, 5 m, 30 m, 2 h, 6 h, 12 h, 24 h, 24 h, then the delivery is exhausted", () => {
    const services = makeTestServices()
    services.receiver.reactWith(() => answer(500, "down for maintenance"))
    return Effect.gen(function*() {
      const tenant = yield* createTenant
      yield* endpoint(tenant)
      yield* pay(tenant)
      yield* tick
      const deliveries = yield* WebhookDeliveries
      for (let attempt = 1; attempt < 9; attempt++) {
        const [pending] = yield* deliveriesOf(tenant)
        expect([pending!.status, pending!.attempt_count]).toEqual(["pending", attempt])
        // Not a moment before it is due...
        const due = pending!.next_attempt_at!
        yield* TestClock.setTime(DateTime.toEpochMillis(due) - 1)
        expect(yield* deliveries.deliverDue).toBe(0)
        yield* TestClock.setTime(DateTime.toEpochMillis(due))
        expect(yield* deliveries.deliverDue).toBe(1)
      }
      const [exhausted] = yield* deliveriesOf(tenant)
      expect([exhausted!.status, exhausted!.attempt_count, exhausted!.next_attempt_at]).toEqual(["exhausted", 9, null])
      expect(exhausted!.last_response_status).toBe(500)

      const times = services.receiver.received.map((request) => request.at)
      expect(times).toHaveLength(9)
      RETRY_DELAYS.forEach((delay, index) => {
        const gap = times[index + 1]! - times[index]!
        expect(gap).toBeGreaterThanOrEqual(Duration.toMillis(delay) * 0.9)
        expect(gap).toBeLessThanOrEqual(Duration.toMillis(delay) * 1.1)
      })
      const total = times[8]! - times[0]!
      expect(total / 3_600_000).toBeGreaterThan(60)
      expect(total / 3_600_000).toBeLessThan(76)
      // Every attempt is on record, with the receiver's answer.
      const full = yield* deliveries.retrieve(tenant, exhausted!.id)
      expect(full.attempts).toHaveLength(9)
      expect(full.attempts![0]).toMatchObject({ response_status: 500, error: "HTTP 500", response_body: "down for maintenance" })
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("a receiver that recovers mid-way ends the delivery succeeded, with the attempts it took", () => {
    const services = makeTestServices()
    let calls = 0
    services.receiver.reactWith(() => ++calls <= 3 ? answer(503) : answer(204))
    return Effect.gen(function*() {
      const tenant = yield* createTenant
      yield* endpoint(tenant)
      yield* pay(tenant)
      yield* tick
      for (let i = 0; i < 3; i++) {
        const [pending] = yield* deliveriesOf(tenant)
        yield* TestClock.setTime(DateTime.toEpochMillis(pending!.next_attempt_at!))
        yield* tick
      }
      const [delivered] = yield* deliveriesOf(tenant)
      expect([delivered!.status, delivered!.attempt_count, delivered!.last_response_status]).toEqual(["succeeded", 4, 204])
      expect(delivered!.delivered_at).not.toBeNull()
      expect(delivered!.next_attempt_at).toBeNull()
      // Nothing more is sent, however long we wait.
      yield* TestClock.adjust("3 days")
      yield* tick
      expect(services.receiver.received).toHaveLength(4)
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("a redirect, a receiver that does not answer within 10 s and a refused connection each count as a failure", () => {
    const services = makeTestServices()
    const reactions = [answer(302), "hang" as const, refused]
    services.receiver.reactWith(() => reactions.shift() ?? answer(200))
    return Effect.gen(function*() {
      const tenant = yield* createTenant
      yield* endpoint(tenant)
      yield* pay(tenant)
      const deliveries = yield* WebhookDeliveries
      const errors: Array<string | null> = []
      for (let i = 0; i < 3; i++) {
        const running = yield* Effect.fork(tick)
        // Once the receiver has the request, 10 seconds go by.
        while (services.receiver.received.length <= i) yield* Effect.yieldNow()
        yield* TestClock.adjust("10 seconds")
        yield* Fiber.join(running)
        const [delivery] = yield* deliveriesOf(tenant)
        expect(delivery!.status).toBe("pending")
        errors.push(delivery!.last_error)
        yield* TestClock.setTime(DateTime.toEpochMillis(delivery!.next_attempt_at!))
      }
      expect(errors).toEqual([
        "HTTP 302: redirects are not followed.",
        "No answer within 10 seconds.",
        "Connection refused."
      ])
      const [delivery] = yield* deliveriesOf(tenant)
      expect((yield* deliveries.retrieve(tenant, delivery!.id)).attempts!.map((attempt) => attempt.response_status))
        .toEqual([302, null, null])
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("signs every delivery as the seed says; a stale timestamp or a changed body does not verify", () => {
    const services = makeTestServices()
    return Effect.gen(function*() {
      const tenant = yield* createTenant
      const created = yield* endpoint(tenant)
      yield* pay(tenant)
      yield* tick
      const [request] = services.receiver.received
      const now = Math.floor(request!.at / 1000)
      expect(created.secret).toMatch(/^whsec_/)
      expect(verifiedBy(created.secret!, request!, now)).toBe(true)
      expect(request!.headers["service-event-id"]).toBe(JSON.parse(new TextDecoder().decode(request!.body)).id)
      expect(request!.headers["content-type"]).toBe("application/json")
      expect(request!.headers["user-agent"]).toMatch(/^PaymentOrchestrator-Webhooks\//)
      // Replayed ten minutes later, or with a byte changed, it no longer verifies.
      expect(verifiedBy(created.secret!, request!, now + 600)).toBe(false)
      const tampered = new Uint8Array(request!.body)
      tampered[tampered.length - 2] ^= 1
      expect(verifiedBy(created.secret!, { ...request!, body: tampered }, now)).toBe(false)
      expect(verifiedBy("whsec_not_the_secret", request!, now)).toBe(false)
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("after a rotation both secrets sign for 24 hours, then only the new one", () => {
    const services = makeTestServices()
    return Effect.gen(function*() {
      const tenant = yield* createTenant
      const created = yield* endpoint(tenant, { enabled_events: [] })
      const rotated = yield* (yield* WebhookEndpoints).rotateSecret(tenant, created.id)
      expect(rotated.secret).not.toBe(created.secret)
      yield* pay(tenant)
      yield* tick
      const during = services.receiver.received.at(-1)!
      const now = () => Math.floor(services.receiver.received.at(-1)!.at / 1000)
      expect(during.headers["service-signature"]!.match(/v1=/g)).toHaveLength(2)
      expect([verifiedBy(rotated.secret!, during, now()), verifiedBy(created.secret!, during, now())]).toEqual([true, true])

      yield* TestClock.adjust("24 hours")
      yield* pay(tenant)
      yield* tick
      const after = services.receiver.received.at(-1)!
      expect(after.headers["service-signature"]!.match(/v1=/g)).toHaveLength(1)
      expect([verifiedBy(rotated.secret!, after, now()), verifiedBy(created.secret!, after, now())]).toEqual([true, false])
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("sends each endpoint only the events it subscribed to, in its own mode, and nothing to a disabled one", () => {
    const services = makeTestServices()
    return Effect.gen(function*() {
      const tenant = yield* createTenant
      const endpoints = yield* WebhookEndpoints
      const succeededOnly = yield* endpoint(tenant, { url: "https://a.example/hook" })
      const everything = yield* endpoint(tenant, { url: "https://b.example/hook", enabled_events: ["*"] })
      const disabled = yield* endpoint(tenant, { url: "https://c.example/hook", enabled_events: [] })
      yield* endpoints.update(tenant, disabled.id, { status: "disabled" })
      yield* endpoint({ ...tenant, livemode: true }, { url: "https://d.example/hook", enabled_events: [] })
      const payment = yield* pay(tenant)
      yield* tick
      const byUrl = (url: string) =>
        services.receiver.received.filter((request) => request.url === url)
          .map((request) => JSON.parse(new TextDecoder().decode(request.body)).type)
      expect(byUrl("https://a.example/hook")).toEqual(["payment.succeeded"])
      expect(byUrl("https://b.example/hook").sort()).toEqual(["payment.created", "payment.processing", "payment.succeeded"])
      expect(byUrl("https://c.example/hook")).toEqual([])
      expect(byUrl("https://d.example/hook")).toEqual([])
      const first = JSON.parse(new TextDecoder().decode(services.receiver.received[0]!.body))
      expect(first.data.object.id).toBe(payment.id)
      expect(Object.keys(first).sort()).toEqual(["api_version", "created_at", "data", "id", "livemode", "object", "type"])
      expect((yield* deliveriesOf(tenant)).filter((delivery) => delivery.endpoint_id === succeededOnly.id)).toHaveLength(1)
      expect((yield* deliveriesOf(tenant)).filter((delivery) => delivery.endpoint_id === everything.id)).toHaveLength(3)
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("an exhausted delivery is resent on demand, one by one or all at once, and counted", () => {
    const services = makeTestServices()
    let up = false
    services.receiver.reactWith(() => up ? answer(200) : refused)
    return Effect.gen(function*() {
      const tenant = yield* createTenant
      yield* endpoint(tenant, { enabled_events: [] })
      yield* pay(tenant)
      yield* tick
      // Let every retry fail: three deliveries end exhausted.
      for (let i = 0; i < 9; i++) {
        yield* TestClock.adjust("27 hours")
        yield* tick
      }
      const exhausted = yield* deliveriesOf(tenant)
      expect(exhausted.map((delivery) => delivery.status)).toEqual(["exhausted", "exhausted", "exhausted"])
      up = true
      const deliveries = yield* WebhookDeliveries
      const one = yield* deliveries.resend(tenant, exhausted[0]!.id)
      expect([one.status, one.attempt_count]).toEqual(["pending", 9])
      yield* tick
      expect((yield* deliveries.retrieve(tenant, exhausted[0]!.id)).status).toBe("succeeded")
      // The dead-letter set is what a bulk resend takes by default: the two left.
      expect(yield* deliveries.resendMatching(tenant, {})).toBe(2)
      expect(yield* deliveries.resendMatching(tenant, {})).toBe(0)
      yield* tick
      expect((yield* deliveriesOf(tenant)).map((delivery) => delivery.status)).toEqual(["succeeded", "succeeded", "succeeded"])
    }).pipe(
      // Each delivery's own retries, as if the endpoint never rested nor was disabled: EndpointCircuits.test.ts covers those.
      Effect.provideService(WebhookDeliveryPolicy, { ...WebhookDeliveryPolicy.defaultValue(), circuitThreshold: 1_000, disableAfter: Duration.days(30) }),
      Effect.provide(services.layer)
    )
  })

  it.effect("a worker that dies holding a delivery loses it only for the length of its lease", () => {
    const services = makeTestServices()
    return Effect.gen(function*() {
      const tenant = yield* createTenant
      yield* endpoint(tenant)
      yield* pay(tenant)
      yield* (yield* EventDispatch).dispatchDue
      // A worker claims the delivery, then dies before it can record anything.
      const now = yield* DateTime.now
      const repository = yield* WebhookDeliveriesRepository
      expect(yield* repository.claimDue({ now, until: DateTime.add(now, { seconds: 30 }), limit: 10 })).toHaveLength(1)
      const deliveries = yield* WebhookDeliveries
      expect(yield* deliveries.deliverDue).toBe(0)
      yield* TestClock.adjust("31 seconds")
      expect(yield* deliveries.deliverDue).toBe(1)
      expect(services.receiver.received).toHaveLength(1)
      expect((yield* deliveriesOf(tenant))[0]!.status).toBe("succeeded")
    }).pipe(Effect.provide(services.layer))
  })
})
