import { expect } from "@effect/vitest"
import { Event, EventsRepository, type Leased, type StoredEvent } from "@orchestrator/core"
import { Effect } from "effect"
import { at, newTenant, payment, paymentEvent, same, type StorageContractTest } from "./StorageContractFixtures.js"

/** An event store: listed per tenant, handed to one dispatcher at a time, fenced by lease. */
export const eventsRepositoryContract = (it: StorageContractTest) => {
  it.effect("lists a tenant's events newest first", () =>
    Effect.gen(function*() {
      const events = yield* EventsRepository
      const tenant = yield* newTenant
      const paid = payment(tenant, { metadata: { order: "42", note: "two words" } })
      const older = paymentEvent(paid, 1, "payment.created")
      const newer = paymentEvent(paid, 2, "payment.succeeded")
      yield* events.insert(tenant.organizationId, older)
      yield* events.insert(tenant.organizationId, newer)
      yield* events.insert(tenant.organizationId, { ...paymentEvent(paid, 3, "payment.failed"), livemode: true })
      const listed = yield* events.listRecent(tenant, 10)
      expect(listed.map((event) => event.type)).toEqual(["payment.succeeded", "payment.created"])
      same(Event, listed[1]!, older)
    }))

  it.effect("hands each new event to one dispatcher, and only its holder marks it dispatched", () =>
    Effect.gen(function*() {
      const events = yield* EventsRepository
      const tenant = yield* newTenant
      const first = paymentEvent(payment(tenant), 1)
      const second = paymentEvent(payment(tenant), 2)
      yield* events.insert(tenant.organizationId, first)
      yield* events.insert(tenant.organizationId, second)
      const mine = (claimed: ReadonlyArray<Leased<StoredEvent>>) => claimed.filter(({ item }) => item.organizationId === tenant.organizationId)
      const claim = (nowMillis: number) => events.claimUndispatched({ now: at(nowMillis), until: at(nowMillis + 60_000), limit: 1000 })

      const claimed = mine(yield* claim(10))
      expect(claimed.map(({ item }) => item.event.id)).toEqual([first.id, second.id])
      same(Event, claimed[0]!.item.event, first)
      expect(mine(yield* claim(20))).toEqual([])
      expect(yield* events.markDispatched(claimed[0]!)).toBe(true)
      // The second one's lease lapses and another dispatcher takes it: the first holder's word no longer counts.
      const retaken = mine(yield* claim(120_000))
      expect(retaken.map(({ item }) => item.event.id)).toEqual([second.id])
      expect(yield* events.markDispatched(claimed[1]!)).toBe(false)
      expect(yield* events.markDispatched(retaken[0]!)).toBe(true)
      expect(mine(yield* claim(400_000))).toEqual([])

      // A batch is marked in one go, with the same fencing: only what this lease still holds.
      const third = paymentEvent(payment(tenant), 3)
      const fourth = paymentEvent(payment(tenant), 4)
      yield* events.insertAll(tenant.organizationId, [third, fourth])
      const batch = mine(yield* claim(500_000))
      expect(batch.map(({ item }) => item.event.id)).toEqual([third.id, fourth.id])
      // Its lease lapses and another dispatcher takes both: the first holder marks nothing.
      const retakenBatch = mine(yield* claim(700_000))
      expect([...(yield* events.markDispatchedAll(batch))]).toEqual([])
      expect([...(yield* events.markDispatchedAll(retakenBatch))].sort()).toEqual([third.id, fourth.id].sort())
      expect(mine(yield* claim(900_000))).toEqual([])
    }))
}
