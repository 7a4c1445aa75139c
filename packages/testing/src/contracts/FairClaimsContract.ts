import { expect } from "@effect/vitest"
import {
  HEALTHY,
  type Leased,
  PaymentsRepository,
  type Tenant,
  WebhookDeliveriesRepository,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointsRepository
} from "@orchestrator/core"
import { Duration, Effect } from "effect"
import { at, attempt, newTenant, payment, type StorageContractTest } from "./StorageContractFixtures.js"

let endpoints = 0

const endpointOf = (tenant: Tenant) =>
  Effect.gen(function*() {
    const endpoint = new WebhookEndpoint({
      object: "webhook_endpoint",
      id: `whe_fair${Date.now()}${++endpoints}`,
      url: "https://merchant.example/hooks",
      description: null,
      enabled_events: [],
      status: "active",
      failing_since: null,
      livemode: tenant.livemode,
      created_at: at(0),
      updated_at: at(0)
    })
    yield* (yield* WebhookEndpointsRepository).insert(tenant, endpoint, { current: "sealed", previous: null, previousExpiresAt: null })
    return endpoint.id
  })

let deliveries = 0

/** `count` deliveries to `endpointId`, due at `at(0)`, of distinct objects (none holds another back). */
const deliveriesTo = (tenant: Tenant, endpointId: string, count: number) =>
  Effect.flatMap(WebhookDeliveriesRepository, (repository) =>
    repository.insertAll(Array.from({ length: count }, () => {
      const n = ++deliveries
      return {
        tenant,
        payload: "{}",
        objectId: null,
        eventCreatedAt: at(0),
        cause: null,
        delivery: new WebhookDelivery({
          object: "webhook_delivery",
          id: `whev_fair${Date.now()}${n}`,
          event_id: `evt_fair${Date.now()}${n}`,
          endpoint_id: endpointId,
          type: "payment.succeeded",
          status: "pending",
          attempt_count: 0,
          last_response_status: null,
          last_error: null,
          next_attempt_at: at(0),
          delivered_at: null,
          created_at: at(0),
          livemode: tenant.livemode,
          payload: {},
          attempts: null
        })
      }
    })))

/** How many of `claimed` went to each of `keys` (an endpoint, a payment's connection). */
const countBy = <A>(claimed: ReadonlyArray<Leased<A>>, keyOf: (item: A) => string, keys: ReadonlyArray<string>) =>
  keys.map((key) => claimed.filter(({ item }) => keyOf(item) === key).length)

/**
 * The fair claims of the queues' repositories, taking the same decisions in every store: each lane
 * (a connection, an endpoint) keeps to its cap, an organization's mode to its own, whatever it has
 * waiting, and what one cannot take is left to the others.
 */
export const fairClaimsContract = (it: StorageContractTest) => {
  it.effect("deliveries: 2 per endpoint (none while its circuit is open, one trial after, more when earned), and the organization's share", () =>
    Effect.gen(function*() {
      const repository = yield* WebhookDeliveriesRepository
      const health = yield* WebhookEndpointsRepository
      const a = yield* newTenant
      const b = yield* newTenant
      const [first, second, open, trial] = [yield* endpointOf(a), yield* endpointOf(a), yield* endpointOf(a), yield* endpointOf(a)]
      const other = yield* endpointOf(b)
      for (const endpoint of [first, second, open, trial]) yield* deliveriesTo(a, endpoint, 4)
      yield* deliveriesTo(b, other, 6)
      yield* health.saveHealth(open, { ...HEALTHY, failureCount: 3, circuitOpenUntil: at(60 * 60_000) })
      yield* health.saveHealth(trial, { ...HEALTHY, failureCount: 5, circuitOpenUntil: at(60_000) })
      yield* health.saveHealth(other, { ...HEALTHY, concurrency: 4 })
      const claim = (nowMillis: number) =>
        repository.claimDue({ now: at(nowMillis), until: at(nowMillis + 30_000), limit: 1_000, share: { perTenant: 5, perLane: 2 } })

      const claimed = yield* claim(2 * 60_000)
      const endpointOfDelivery = (item: { readonly endpointId: string }) => item.endpointId
      // A: 2 + 2 on its healthy endpoints, 1 trial (its cool-down is over), none behind the open
      // circuit, and 5 in all; B: the 4 its endpoint has earned.
      const [onFirst, onSecond, onOpen, onTrial, onOther] = countBy(claimed, endpointOfDelivery, [first, second, open, trial, other])
      expect([onOpen, onTrial, onOther]).toEqual([0, 1, 4])
      expect(onFirst + onSecond + onTrial).toBe(5)
      expect([onFirst, onSecond].every((count) => count <= 2)).toBe(true)
      // All at their caps while these are in flight: nothing more for anyone.
      const again = yield* claim(2 * 60_000 + 1_000)
      expect(countBy(again, endpointOfDelivery, [first, second, open, trial, other])).toEqual([0, 0, 0, 0, 0])
    }))

  it.effect("reconciliation: 2 calls per connection and the organization's share; a payment held for its next look is not taken", () =>
    Effect.gen(function*() {
      const repository = yield* PaymentsRepository
      const a = yield* newTenant
      const b = yield* newTenant
      const unknownOn = (tenant: Tenant, provider: string) =>
        payment(tenant, {
          provider,
          attempts: [attempt({ provider, status: "unknown", error_code: "timeout", latency_ms: 30_000, created_at: at(0) })]
        })
      const slow = Array.from({ length: 5 }, () => unknownOn(a, "slow"))
      const fast = [unknownOn(a, "fast"), unknownOn(a, "fast")]
      const others = [unknownOn(b, "slow")]
      for (const row of [...slow, ...fast]) yield* repository.insert(a, row)
      for (const row of others) yield* repository.insert(b, row)
      // Other tests' payments in the same store may be claimed too: they count for none of these lanes.
      const providerOf = (ref: { readonly paymentId: string }) =>
        slow.some((row) => row.id === ref.paymentId)
          ? "a/slow"
          : fast.some((row) => row.id === ref.paymentId)
          ? "a/fast"
          : others.some((row) => row.id === ref.paymentId)
          ? "b"
          : "elsewhere"
      const claim = (nowMillis: number) =>
        repository.claimDue(
          { _tag: "Unanswered", sentBefore: at(nowMillis - 5_000), callTimeout: Duration.seconds(30) },
          { now: at(nowMillis), until: at(nowMillis + 120_000), limit: 1_000, share: { perTenant: 3, perLane: 2 } }
        )
      const lanes = ["a/slow", "a/fast", "b"]
      const first = yield* claim(60_000)
      const [onSlow, onFast, onB] = countBy(first, providerOf, lanes)
      expect(onB).toBe(1)
      expect(onSlow + onFast).toBe(3)
      expect(Math.max(onSlow, onFast)).toBe(2)
      expect(countBy(yield* claim(61_000), providerOf, lanes)).toEqual([0, 0, 0])

      // One of A's is looked at and held until its next look: a worker of A's is free again, and
      // what it takes is not the held one.
      const held = first.find(({ item }) => providerOf(item) === "a/slow")!
      yield* repository.holdUntil(held.item.paymentId, held.token, at(10 * 60_000))
      const next = yield* claim(62_000)
      expect(next.map(({ item }) => item.paymentId)).not.toContain(held.item.paymentId)
      expect(next.filter(({ item }) => providerOf(item).startsWith("a/"))).toHaveLength(1)
    }))
}
