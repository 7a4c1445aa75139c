import { expect, layer, type Vitest } from "@effect/vitest"
import {
  API_VERSION,
  CustomersRepository,
  type Event,
  EventsRepository,
  Payment,
  PaymentsRepository,
  PlansRepository,
  type RecordStore,
  Refund,
  RefundsRepository,
  type StoragePorts,
  SubscriptionRecord,
  SubscriptionsRepository,
  subscriptionView,
  type Tenant,
  Transactions
} from "@orchestrator/core"
import { DateTime, Effect, Exit, type Layer, Option, Schema } from "effect"
import * as fixtures from "./contracts/StorageContractFixtures.js"
import { at, id, newTenant } from "./contracts/StorageContractFixtures.js"

/** Records as the storage contracts make them, created a moment after their organization. */
const payment = (tenant: Tenant) => fixtures.payment(tenant, { attempts: [fixtures.attempt({ created_at: at(1) })], created_at: at(1), updated_at: at(1) })
const refund = (tenant: Tenant, paymentId: string) => fixtures.refund(tenant, paymentId, { created_at: at(1), updated_at: at(1) })

const eventOf = (type: string, object: unknown, millis: number): Event => ({
  object: "event",
  id: id("evt"),
  type,
  api_version: API_VERSION,
  created_at: at(millis),
  livemode: false,
  data: { object }
} as Event)

interface Stateful {
  readonly id: string
  readonly status: string
  readonly updated_at: DateTime.Utc
}

/**
 * One kind of record a `Lifecycle` writes: its store, a new record of a tenant (with what it needs
 * stored first), a move of it, and its event.
 */
interface RecordKind<A extends Stateful> {
  readonly name: string
  readonly schema: Schema.Schema<A, any>
  readonly store: Effect.Effect<RecordStore<A>, never, StoragePorts>
  readonly fresh: (tenant: Tenant) => Effect.Effect<A, never, StoragePorts>
  /** Two statuses the record can be written in after its first, in order. */
  readonly next: string
  readonly later: string
  readonly moved: (record: A, status: string, millis: number) => A
  readonly event: (record: A, millis: number) => Event
}

const payments: RecordKind<Payment> = {
  name: "payment",
  schema: Payment,
  store: PaymentsRepository,
  fresh: (tenant) => Effect.succeed(payment(tenant)),
  next: "failed",
  later: "succeeded",
  moved: (record, status, millis) => new Payment({ ...record, status: status as Payment["status"], updated_at: at(millis) }),
  event: (record, millis) => eventOf(`payment.${record.status}`, record, millis)
}

const refunds: RecordKind<Refund> = {
  name: "refund",
  schema: Refund,
  store: RefundsRepository,
  fresh: (tenant) =>
    Effect.gen(function*() {
      const paid = new Payment({ ...payment(tenant), status: "succeeded", amount_captured: 1050 })
      yield* (yield* PaymentsRepository).insertWithEvents(tenant, paid, [])
      return refund(tenant, paid.id)
    }),
  next: "failed",
  later: "succeeded",
  moved: (record, status, millis) => new Refund({ ...record, status: status as Refund["status"], updated_at: at(millis) }),
  event: (record, millis) => eventOf(`refund.${record.status}`, record, millis)
}

/** The billing tables keep the record whole in a jsonb column, `updated_at` included. */
const subscriptions: RecordKind<SubscriptionRecord> = {
  name: "subscription",
  schema: SubscriptionRecord,
  store: SubscriptionsRepository,
  fresh: (tenant) =>
    Effect.gen(function*() {
      const owner = fixtures.customer(null)
      yield* (yield* CustomersRepository).insert(tenant, owner)
      const plan = fixtures.monthlyPlan()
      yield* (yield* PlansRepository).insert(tenant, plan)
      return fixtures.subscription(plan, owner, 60_000, 1)
    }),
  next: "past_due",
  later: "canceled",
  moved: (record, status, millis) => new SubscriptionRecord({ ...record, status: status as SubscriptionRecord["status"], updated_at: at(millis) }),
  event: (record, millis) => eventOf("subscription.updated", subscriptionView(record, null), millis)
}

/** The rows of a record and its events as stored: what a write did, or did not, leave behind. */
const stored = <A extends Stateful>(kind: RecordKind<A>, tenant: Tenant, recordId: string, events: ReadonlyArray<Event>) =>
  Effect.gen(function*() {
    const store = yield* kind.store
    const log = yield* EventsRepository
    const record = yield* store.find(tenant, recordId)
    const found = yield* Effect.forEach(events, (event) => log.find(tenant, event.id))
    return {
      record: Option.map(record, (value) => Schema.encodeSync(kind.schema)(value)),
      events: found.filter(Option.isSome).map((event) => event.value.id)
    }
  })

const checks = <A extends Stateful>(it: Vitest.MethodsNonLive<StoragePorts, true>, kind: RecordKind<A>) => {
  it.effect(`${kind.name}: insertWithEvents writes the record and its events together`, () =>
    Effect.gen(function*() {
      const store = yield* kind.store
      const tenant = yield* newTenant
      const record = yield* kind.fresh(tenant)
      const events = [kind.event(record, 1)]
      yield* store.insertWithEvents(tenant, record, events)
      const after = yield* stored(kind, tenant, record.id, events)
      expect(after.record).toEqual(Option.some(Schema.encodeSync(kind.schema)(record)))
      expect(after.events).toEqual(events.map((event) => event.id))
    }))

  it.effect(`${kind.name}: insertWithEvents in a transaction that fails leaves neither record nor events`, () =>
    Effect.gen(function*() {
      const store = yield* kind.store
      const transactions = yield* Transactions
      const tenant = yield* newTenant
      const record = yield* kind.fresh(tenant)
      const events = [kind.event(record, 1)]
      const exit = yield* Effect.exit(transactions.run(
        Effect.zipRight(store.insertWithEvents(tenant, record, events), Effect.fail("rolled back" as const))
      ))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(yield* stored(kind, tenant, record.id, events)).toEqual({ record: Option.none(), events: [] })
    }))

  it.effect(`${kind.name}: updateIfUnchanged writes the record and its events while the record is as seen`, () =>
    Effect.gen(function*() {
      const store = yield* kind.store
      const tenant = yield* newTenant
      const record = yield* kind.fresh(tenant)
      yield* store.insertWithEvents(tenant, record, [])
      const next = kind.moved(record, kind.next, 5)
      const events = [kind.event(next, 5)]
      expect(yield* store.updateIfUnchanged(tenant, record, next, events)).toBe(true)
      const after = yield* stored(kind, tenant, record.id, events)
      expect(after.record).toEqual(Option.some(Schema.encodeSync(kind.schema)(next)))
      expect(after.events).toEqual(events.map((event) => event.id))
    }))

  it.effect(`${kind.name}: updateIfUnchanged writes nothing and answers false once the record changed since seen`, () =>
    Effect.gen(function*() {
      const store = yield* kind.store
      const tenant = yield* newTenant
      const record = yield* kind.fresh(tenant)
      yield* store.insertWithEvents(tenant, record, [])
      // Changed since seen: by a move (another status), or by a save (same status, later `updated_at`).
      for (const change of [kind.moved(record, kind.next, 5), kind.moved(record, record.status, 5)]) {
        yield* store.update(tenant, change)
        const late = kind.moved(record, kind.later, 9)
        const events = [kind.event(late, 9)]
        expect(yield* store.updateIfUnchanged(tenant, record, late, events)).toBe(false)
        const after = yield* stored(kind, tenant, record.id, events)
        expect(after.record).toEqual(Option.some(Schema.encodeSync(kind.schema)(change)))
        expect(after.events).toEqual([])
      }
    }))
}

/**
 * What every store a `Lifecycle` writes through must do, whatever it stores in (memory, PGlite,
 * PostgreSQL): the record and its events land together or not at all, and the compare-and-set
 * writes nothing once the record has changed since it was seen.
 */
export const lifecycleContract = <E>(name: string, storage: Layer.Layer<StoragePorts, E>) =>
  layer(storage, { excludeTestServices: true, timeout: "120 seconds" })(`lifecycle store contract on ${name}`, (it) => {
    checks(it, payments)
    checks(it, refunds)
    checks(it, subscriptions)
  })
