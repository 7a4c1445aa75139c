import { describe, expect, it } from "@effect/vitest"
import { Effect, Tracer } from "effect"
import type { Currency } from "../src/domain/Currency.js"
import { causingRequestHere, CurrentCausingRequest } from "../src/domain/events/CausingRequest.js"
import { EventDispatch } from "../src/features/events/EventDispatch.js"
import { Payments } from "../src/features/payments/Payments.js"
import { WebhookDeliveries } from "../src/features/webhooks/WebhookDeliveries.js"
import { WebhookEndpoints } from "../src/features/webhooks/WebhookEndpoints.js"
import { answer } from "./support/ScriptedReceiver.js"
import { createTenant, makeTestServices } from "./support/TestServices.js"

/** Effect's own tracer, keeping every span it makes for the test to read. */
const recordingTracer = Effect.map(Effect.tracer, (native) => {
  const spans: Array<Tracer.Span> = []
  const tracer = Tracer.make({
    span: (...args) => {
      const span = native.span(...args)
      spans.push(span)
      return span
    },
    context: (f, fiber) => native.context(f, fiber)
  })
  return { spans, tracer }
})

describe("worker spans and the request that caused them (memory)", () => {
  it.effect("a delivery attempt of a payment's event carries the request's id and links to its span; one of a worker's event does not", () => {
    const services = makeTestServices()
    services.receiver.reactWith(() => answer(200))
    return Effect.gen(function*() {
      const { spans, tracer } = yield* recordingTracer
      yield* Effect.gen(function*() {
        const tenant = yield* createTenant
        yield* Effect.flatMap(
          WebhookEndpoints,
          (endpoints) => endpoints.create(tenant, { url: "https://merchant.example/hooks", enabled_events: ["payment.succeeded"] })
        )
        const payments = yield* Payments
        const pay = payments.create(tenant, { amount: 1250, currency: "EUR" as Currency, payment_method: { type: "card", token: "tok_ok" } })
        // What the HTTP shell does for a request: under its server span, the request is the cause.
        const request = yield* Effect.gen(function*() {
          const cause = yield* causingRequestHere("req_paid")
          yield* pay.pipe(Effect.locally(CurrentCausingRequest, cause))
          return yield* Effect.currentSpan
        }).pipe(Effect.withSpan("POST /v1/payments", { kind: "server", root: true }))
        // A payment made with no request at hand (a worker's): its delivery has no request to name.
        yield* pay
        yield* (yield* EventDispatch).dispatchDue
        expect(yield* (yield* WebhookDeliveries).deliverDue).toBe(2)

        const attempts = spans.filter((span) => span.name === "webhook delivery_attempt")
        expect(attempts).toHaveLength(2)
        const [caused, uncaused] = [
          attempts.filter((span) => span.attributes.get("request.id") === "req_paid"),
          attempts.filter((span) => !span.attributes.has("request.id"))
        ]
        expect(caused).toHaveLength(1)
        expect(uncaused).toHaveLength(1)
        expect(caused[0]!.links.map((link) => [link.span.traceId, link.span.spanId])).toEqual([[request.traceId, request.spanId]])
        // Linked, not parented: the attempt is its own trace.
        expect(caused[0]!.traceId).not.toBe(request.traceId)
        expect(uncaused[0]!.links).toEqual([])
      }).pipe(Effect.withTracer(tracer))
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("a request served untraced is remembered by its id alone, with no trace context to link to", () =>
    Effect.gen(function*() {
      const traced = yield* causingRequestHere("req_traced").pipe(Effect.withSpan("POST /v1/payments"))
      expect(traced.traceParent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/)
      const untraced = yield* causingRequestHere("req_untraced").pipe(Effect.withSpan("POST /v1/payments"), Effect.withTracerEnabled(false))
      expect(untraced).toEqual({ requestId: "req_untraced", traceParent: null })
    }))
})
