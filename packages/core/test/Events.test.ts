import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, TestClock } from "effect"
import type { Currency } from "../src/domain/Currency.js"
import { EventDispatch } from "../src/features/events/EventDispatch.js"
import { Events } from "../src/features/events/Events.js"
import { Payments } from "../src/features/payments/Payments.js"
import { createTenant, makeTestServices } from "./support/TestServices.js"

const page = { limit: 100, startingAfter: undefined }
const none = { type: undefined, createdGte: undefined, createdLte: undefined }

describe("events", () => {
  it.effect("lists a tenant's events by type and creation time, and purges them after 30 days", () =>
    Effect.gen(function*() {
      const tenant = yield* createTenant
      const payments = yield* Payments
      const events = yield* Events
      const pay = payments.create(tenant, { amount: 300, currency: "EUR" as Currency, payment_method: { type: "card", token: "tok_ok" } })
      yield* pay
      yield* TestClock.adjust("10 days")
      const middle = yield* DateTime.now
      yield* pay
      const all = yield* events.list(tenant, none, page)
      expect(all.data).toHaveLength(6)
      expect((yield* events.list(tenant, { ...none, type: "payment.succeeded" }, page)).data).toHaveLength(2)
      expect((yield* events.list(tenant, { ...none, createdGte: middle }, page)).data).toHaveLength(3)
      expect((yield* events.list(tenant, { ...none, createdLte: DateTime.subtract(middle, { millis: 1 }) }, page)).data)
        .toHaveLength(3)
      expect((yield* events.list({ ...tenant, livemode: true }, none, page)).data).toEqual([])
      const oldest = all.data.at(-1)!
      expect((yield* events.retrieve(tenant, oldest.id)).id).toBe(oldest.id)

      // Kept 30 days (once dispatched), then gone.
      yield* (yield* EventDispatch).dispatchDue
      const purge = events.jobs.find((job) => job.name === "purge-events")!.run
      yield* TestClock.adjust("20 days")
      expect(yield* purge).toBe(0)
      yield* TestClock.adjust("1 day")
      expect(yield* purge).toBe(3)
      expect((yield* Effect.flip(events.retrieve(tenant, oldest.id)))._tag).toBe("EventNotFound")
      expect((yield* events.list(tenant, none, page)).data).toHaveLength(3)
    }).pipe(Effect.provide(makeTestServices().layer)))
})
