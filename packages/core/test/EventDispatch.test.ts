import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer, TestClock } from "effect"
import type { Currency } from "../src/domain/Currency.js"
import { type EventConsumer, EventConsumers, EventDispatch } from "../src/features/events/EventDispatch.js"
import { Payments } from "../src/features/payments/Payments.js"
import { createTenant, makeTestServices } from "./support/TestServices.js"

/** A dispatcher of its own over the test services' outbox, handing events to `consumers`. */
const dispatcherFor = (consumers: ReadonlyArray<EventConsumer>) =>
  EventDispatch.layer.pipe(
    Layer.provide(Layer.succeed(EventConsumers, consumers)),
    Layer.build,
    Effect.map(Context.get(EventDispatch))
  )

const pay = (tenant: { organizationId: string; livemode: boolean }) =>
  Effect.flatMap(
    Payments,
    (payments) => payments.create(tenant, { amount: 700, currency: "EUR" as Currency, payment_method: { type: "card", token: "tok_ok" } })
  )

describe("the event outbox", () => {
  it.effect("hands every event to every consumer once, in the order it was written", () => {
    const seen: Array<string> = []
    const audit: Array<string> = []
    return Effect.gen(function*() {
      const tenant = yield* createTenant
      const payment = yield* pay(tenant)
      const dispatch = yield* dispatcherFor([
        { name: "webhooks", consume: (_, event) => Effect.sync(() => seen.push(`${event.type} ${event.data.object.id}`)) },
        { name: "audit", consume: (organizationId) => Effect.sync(() => audit.push(organizationId)) }
      ])
      expect(yield* dispatch.dispatchDue).toBe(3)
      expect(seen).toEqual(["payment.created", "payment.processing", "payment.succeeded"].map((type) => `${type} ${payment.id}`))
      expect(audit).toHaveLength(3)
      // Nothing is handed over twice, even long after.
      yield* TestClock.adjust("1 hour")
      expect(yield* dispatch.dispatchDue).toBe(0)
      expect(seen).toHaveLength(3)
    }).pipe(Effect.scoped, Effect.provide(makeTestServices().layer))
  })

  it.effect("an event whose consumer fails stays in the outbox and is handed over again once its lease lapses", () => {
    const seen: Array<string> = []
    let failing = true
    return Effect.gen(function*() {
      const tenant = yield* createTenant
      yield* pay(tenant)
      const dispatch = yield* dispatcherFor([
        { name: "first", consume: (_, event) => Effect.sync(() => seen.push(event.id)) },
        { name: "flaky", consume: () => failing ? Effect.dieMessage("consumer down") : Effect.void }
      ])
      expect(yield* dispatch.dispatchDue).toBe(3)
      // Each reached the consumers (a failed batch is tried again event by event, so maybe twice).
      expect(new Set(seen).size).toBe(3)
      const firstPass = seen.length
      failing = false
      // Still leased: not handed over again at once...
      expect(yield* dispatch.dispatchDue).toBe(0)
      // ...but once the lease lapses, all three go to every consumer again, and are then done.
      yield* TestClock.adjust("2 minutes")
      expect(yield* dispatch.dispatchDue).toBe(3)
      expect(seen).toHaveLength(firstPass + 3)
      yield* TestClock.adjust("2 minutes")
      expect(yield* dispatch.dispatchDue).toBe(0)
    }).pipe(Effect.scoped, Effect.provide(makeTestServices().layer))
  })

  it.effect("an event a consumer cannot take holds up none of the others claimed with it", () => {
    const seen: Array<string> = []
    return Effect.gen(function*() {
      const tenant = yield* createTenant
      yield* pay(tenant)
      const dispatch = yield* dispatcherFor([
        {
          name: "picky",
          consume: (_, event) => event.type === "payment.processing" ? Effect.dieMessage("cannot take this one") : Effect.sync(() => seen.push(event.type))
        }
      ])
      yield* dispatch.dispatchDue
      // (In SQL the failed batch's writes roll back; here the consumer's record of it stays.)
      expect(new Set(seen)).toEqual(new Set(["payment.created", "payment.succeeded"]))
      // The one that failed waits for its lease, and only it is handed over again.
      yield* TestClock.adjust("2 minutes")
      expect(yield* dispatch.dispatchDue).toBe(1)
    }).pipe(Effect.scoped, Effect.provide(makeTestServices().layer))
  })
})
