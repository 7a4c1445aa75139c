import { expect } from "@effect/vitest"
import { EventsRepository, InsightsRepository, PaymentsRepository } from "@orchestrator/core"
import { Effect } from "effect"
import { at, attempt, newTenant, payment, paymentEvent, type StorageContractTest } from "./StorageContractFixtures.js"

/** The insights queries: attempt tallies per provider and bucket, a payment's events, deliveries. */
export const insightsRepositoryContract = (it: StorageContractTest) => {
  it.effect("counts attempts per provider and bucket since a time, and finds a payment's events", () =>
    Effect.gen(function*() {
      const payments = yield* PaymentsRepository
      const events = yield* EventsRepository
      const insights = yield* InsightsRepository
      const tenant = yield* newTenant
      const other = yield* newTenant
      const HOUR = 3_600_000
      const first = payment(tenant, {
        attempts: [
          attempt({ provider: "sandbox_a", status: "failed", latency_ms: 10, created_at: at(HOUR - 1) }),
          attempt({ provider: "sandbox_a", status: "failed", latency_ms: 30, created_at: at(HOUR) }),
          attempt({ provider: "sandbox_b", status: "succeeded", latency_ms: null, created_at: at(HOUR + 1) })
        ]
      })
      const second = payment(tenant, {
        attempts: [attempt({ provider: "sandbox_a", status: "requires_capture", latency_ms: 50, created_at: at(2 * HOUR + 5) })]
      })
      yield* payments.insert(tenant, first)
      yield* payments.insert(tenant, second)
      yield* payments.insert(other, payment(other, { attempts: [attempt({ created_at: at(HOUR) })] }))

      const tallies = yield* insights.attemptTallies(tenant, at(HOUR), HOUR)
      const base = at(0).epochMillis
      const byKey = (tally: (typeof tallies)[number]) => `${tally.provider}@${(tally.bucketStart - (base - (base % HOUR))) / HOUR}`
      expect(Object.fromEntries(tallies.map((tally) => [byKey(tally), [tally.attempts, tally.succeeded, tally.failed, tally.latencySum, tally.latencyCount]])))
        .toEqual({ "sandbox_a@1": [1, 0, 1, 30, 1], "sandbox_b@1": [1, 1, 0, 0, 0], "sandbox_a@2": [1, 1, 0, 50, 1] })
      expect(yield* insights.attemptTallies({ ...tenant, livemode: true }, at(0), HOUR)).toEqual([])

      const created = paymentEvent(first, 1)
      const failed = paymentEvent(first, 2, "payment.failed")
      yield* events.insert(tenant.organizationId, failed)
      yield* events.insert(tenant.organizationId, created)
      yield* events.insert(tenant.organizationId, paymentEvent(second, 3))
      expect((yield* insights.paymentEvents(tenant, first.id)).map((event) => event.id)).toEqual([created.id, failed.id])
      expect(yield* insights.paymentEvents(other, first.id)).toEqual([])
      expect(yield* insights.deliveryCounts(tenant, at(0))).toEqual({ pending: 0, succeeded: 0, exhausted: 0 })
      expect(yield* insights.deliveriesOf(tenant, [])).toEqual([])
    }))
}
