import { expect } from "@effect/vitest"
import { EventsRepository, PaymentsRepository, Transactions } from "@orchestrator/core"
import { Effect, Either, Option } from "effect"
import { newTenant, payment, paymentEvent, type StorageContractTest } from "./StorageContractFixtures.js"

/** A store's transactions: a change and its event commit or roll back together. */
export const transactionsContract = (it: StorageContractTest) => {
  it.effect("commits a change with its event together, and rolls both back together", () =>
    Effect.gen(function*() {
      const transactions = yield* Transactions
      const payments = yield* PaymentsRepository
      const events = yield* EventsRepository
      const tenant = yield* newTenant
      const kept = payment(tenant)
      yield* transactions.run(Effect.zipRight(payments.insert(tenant, kept), events.insert(tenant.organizationId, paymentEvent(kept, 0))))
      const lost = payment(tenant)
      const failed = yield* Effect.either(transactions.run(Effect.gen(function*() {
        yield* payments.insert(tenant, lost)
        yield* events.insert(tenant.organizationId, paymentEvent(lost, 0))
        return yield* Effect.fail("boom")
      })))
      expect(Either.isLeft(failed)).toBe(true)
      expect(Option.isSome(yield* payments.find(tenant, kept.id))).toBe(true)
      expect(Option.isNone(yield* payments.find(tenant, lost.id))).toBe(true)
      const recorded = (yield* events.listRecent(tenant, 10)).map((e) => e.data.object.id)
      expect(recorded).toEqual([kept.id])
    }))
}
