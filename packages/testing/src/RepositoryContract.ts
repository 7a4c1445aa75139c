import { Event } from "@orchestrator/core/events/Event"
import { EventsRepository, type StoredEvent } from "@orchestrator/core/events/EventsRepository"
import type { Leased } from "@orchestrator/core/ports/LeasedWork"
import { InsightsRepository } from "@orchestrator/core/insights/InsightsRepository"
import { IdempotencyKeysRepository } from "@orchestrator/core/idempotency/IdempotencyKeysRepository"
import type { Currency } from "@orchestrator/core/domain/Currency"
import { Failure, NextAction, Payment, PaymentAttempt, PaymentMethod } from "@orchestrator/core/payments/Payment"
import { PaymentsRepository } from "@orchestrator/core/payments/PaymentsRepository"
import { ProviderConnection } from "@orchestrator/core/providers/ProviderConnection"
import { ProviderConnectionsRepository } from "@orchestrator/core/providers/ProviderConnectionsRepository"
import { Refund } from "@orchestrator/core/refunds/Refund"
import { RefundsRepository } from "@orchestrator/core/refunds/RefundsRepository"
import { makeId } from "@orchestrator/core/domain/Ids"
import type { Tenant } from "@orchestrator/core/domain/Tenant"
import type { StoragePorts } from "@orchestrator/core/memory/StorageMemory"
import { testConnection } from "./Connections.js"
import { Transactions } from "@orchestrator/core/ports/Transactions"
import { ApiKey } from "@orchestrator/core/tenancy/ApiKey"
import { ApiKeysRepository } from "@orchestrator/core/tenancy/ApiKeysRepository"
import { Organization } from "@orchestrator/core/tenancy/Organization"
import { OrganizationsRepository } from "@orchestrator/core/tenancy/OrganizationsRepository"
import { Customer } from "@orchestrator/core/subscriptions/Customer"
import { CustomersRepository } from "@orchestrator/core/subscriptions/CustomersRepository"
import { InvoiceRecord } from "@orchestrator/core/subscriptions/Invoice"
import { InvoicesRepository } from "@orchestrator/core/subscriptions/InvoicesRepository"
import { Plan } from "@orchestrator/core/subscriptions/Plan"
import { PlansRepository } from "@orchestrator/core/subscriptions/PlansRepository"
import { SubscriptionRecord } from "@orchestrator/core/subscriptions/Subscription"
import { SubscriptionsRepository } from "@orchestrator/core/subscriptions/SubscriptionsRepository"
import { TestClock } from "@orchestrator/core/subscriptions/TestClock"
import { TestClocksRepository } from "@orchestrator/core/subscriptions/TestClocksRepository"
import { expect, layer } from "@effect/vitest"
import { DateTime, Effect, Either, type Layer, Option, Schema } from "effect"


const at = (millis: number) => DateTime.unsafeMake(Date.UTC(2026, 10, 22, 9, 0, 0) + millis)
let sequence = 0
const id = (prefix: "pay" | "org" | "att" | "ref" | "evt" | "key" | "pcn" | "cus" | "plan" | "sub" | "in" | "clock") => makeId(prefix, Date.now() + sequence++)

const newTenant = Effect.gen(function*() {
  const organization = new Organization({
    id: id("org"),
    name: `Org ${id("org")}`,
    default_provider_test: "sandbox_a",
    default_provider_live: null,
    payments_routing_test: "default",
    payments_routing_live: "default",
    created_at: at(0)
  })
  yield* (yield* OrganizationsRepository).insert(organization)
  return { organizationId: organization.id, livemode: false } satisfies Tenant
})

const attempt = (overrides: Partial<PaymentAttempt> = {}) =>
  new PaymentAttempt({
    object: "payment_attempt",
    id: id("att"),
    provider: "sandbox_a",
    status: "pending",
    provider_payment_id: null,
    error_code: null,
    latency_ms: null,
    created_at: at(0),
    ...overrides
  })

const payment = (tenant: Tenant, overrides: Partial<Payment> = {}) =>
  new Payment({
    object: "payment",
    id: id("pay"),
    status: "processing",
    amount: 1050,
    amount_captured: 0,
    amount_refunded: 0,
    currency: "EUR" as Currency,
    provider: "sandbox_a",
    provider_payment_id: null,
    routing: { strategy: "default", rule_id: null },
    payment_method: new PaymentMethod({ type: "card", token: "tok_visa", brand: null, last4: null, country: null }),
    customer_id: null,
    description: null,
    metadata: {},
    capture: true,
    off_session: false,
    return_url: null,
    next_action: null,
    failure: null,
    attempts: [attempt()],
    created_at: at(0),
    updated_at: at(0),
    livemode: tenant.livemode,
    ...overrides
  })

const refund = (tenant: Tenant, paymentId: string, overrides: Partial<Refund> = {}) =>
  new Refund({
    object: "refund",
    id: id("ref"),
    payment_id: paymentId,
    amount: 500,
    currency: "EUR" as Currency,
    status: "pending",
    reason: null,
    provider_refund_id: null,
    failure: null,
    metadata: {},
    created_at: at(0),
    updated_at: at(0),
    livemode: tenant.livemode,
    ...overrides
  })

const paymentEvent = (object: Payment, millis: number, type: Event["type"] = "payment.created"): Event => ({
  object: "event",
  id: id("evt"),
  type,
  api_version: "2026-11-01",
  created_at: at(millis),
  livemode: object.livemode,
  data: { object }
} as Event)

/** Compares through the wire encoding, so `DateTime`s and classes compare by value. */
const same = <A, I>(schema: Schema.Schema<A, I>, actual: A, expected: A) =>
  expect(Schema.encodeSync(schema)(actual)).toEqual(Schema.encodeSync(schema)(expected))

const page = (limit: number, startingAfter?: string) => ({ limit, startingAfter })

/**
 * What every implementation of the storage ports must do, whatever it stores in: the in-memory layers,
 * PGlite and PostgreSQL all run this same suite.
 */
export const repositoryContract = <E>(name: string, storage: Layer.Layer<StoragePorts, E>) =>
  layer(storage, { excludeTestServices: true, timeout: "120 seconds" })(`storage contract on ${name}`, (it) => {
    it.effect("stores a payment with its attempts and reads back exactly what it wrote", () =>
      Effect.gen(function*() {
        const repository = yield* PaymentsRepository
        const tenant = yield* newTenant
        const stored = payment(tenant, {
          status: "failed",
          customer_id: "cus_1",
          description: "Order #42 – “quoted” ünïcode",
          metadata: { order: "42", note: "" },
          return_url: "https://shop.example/back?x=1",
          next_action: new NextAction({ type: "redirect", url: "https://psp.example/3ds" }),
          failure: new Failure({ code: "card_declined", message: "Your card was declined." }),
          payment_method: new PaymentMethod({
            type: "card",
            token: "tok_visa",
            brand: "visa",
            last4: "4242",
            country: "US"
          }),
          attempts: [
            attempt({ status: "failed", error_code: "processing_error", latency_ms: 12, created_at: at(1) }),
            attempt({ status: "failed", error_code: "card_declined", latency_ms: 30, created_at: at(2) })
          ],
          created_at: at(1),
          updated_at: at(3)
        })
        yield* repository.insert(tenant, stored)
        same(Payment, Option.getOrThrow(yield* repository.find(tenant, stored.id)), stored)
        same(Payment, Option.getOrThrow(yield* repository.findForUpdate(tenant, stored.id)), stored)
      }))

    it.effect("updates status, amounts and attempts, adding new attempts in order", () =>
      Effect.gen(function*() {
        const repository = yield* PaymentsRepository
        const tenant = yield* newTenant
        const first = payment(tenant)
        yield* repository.insert(tenant, first)
        const second = attempt({ created_at: at(5) })
        const updated = new Payment({
          ...first,
          status: "succeeded",
          amount_captured: 1050,
          amount_refunded: 300,
          provider_payment_id: "ch_1",
          attempts: [new PaymentAttempt({ ...first.attempts[0]!, status: "failed", error_code: "x" }), second],
          updated_at: at(6)
        })
        yield* repository.update(tenant, updated)
        same(Payment, Option.getOrThrow(yield* repository.find(tenant, first.id)), updated)
      }))

    it.effect("writes a payment with its events at once, and a change only while the payment is as last seen", () =>
      Effect.gen(function*() {
        const repository = yield* PaymentsRepository
        const events = yield* EventsRepository
        // Optional for a store: one that cannot is written to record by record instead.
        if (repository.insertWithEvents === undefined || repository.updateIfUnchanged === undefined) return
        const tenant = yield* newTenant
        const created = payment(tenant, { status: "processing", created_at: at(1), updated_at: at(1) })
        yield* repository.insertWithEvents(tenant, created, [paymentEvent(created, 1), paymentEvent(created, 2, "payment.processing")])
        same(Payment, Option.getOrThrow(yield* repository.find(tenant, created.id)), created)
        const succeeded = new Payment({
          ...created,
          status: "succeeded",
          amount_captured: 1050,
          attempts: [new PaymentAttempt({ ...created.attempts[0]!, status: "succeeded" })],
          updated_at: at(3)
        })
        const settled = paymentEvent(succeeded, 3, "payment.succeeded")
        expect(yield* repository.updateIfUnchanged(tenant, created, succeeded, [settled])).toBe(true)
        same(Payment, Option.getOrThrow(yield* repository.find(tenant, created.id)), succeeded)
        // Seen before that change: nothing is written, no event either.
        const late = new Payment({ ...created, status: "failed", updated_at: at(4) })
        expect(yield* repository.updateIfUnchanged(tenant, created, late, [paymentEvent(late, 4, "payment.failed")])).toBe(false)
        same(Payment, Option.getOrThrow(yield* repository.find(tenant, created.id)), succeeded)
        const types = (yield* events.listRecent(tenant, 10)).map((event) => event.type).reverse()
        expect(types).toEqual(["payment.created", "payment.processing", "payment.succeeded"])
      }))

    it.effect("keeps organizations and modes apart", () =>
      Effect.gen(function*() {
        const repository = yield* PaymentsRepository
        const tenant = yield* newTenant
        const other = yield* newTenant
        const stored = payment(tenant)
        yield* repository.insert(tenant, stored)
        expect(Option.isNone(yield* repository.find(other, stored.id))).toBe(true)
        expect(Option.isNone(yield* repository.find({ ...tenant, livemode: true }, stored.id))).toBe(true)
        expect(yield* repository.tenantOf(stored.id)).toEqual(Option.some(tenant))
        expect(Option.isNone(yield* repository.tenantOf("pay_unknown"))).toBe(true)
        const listed = yield* repository.list(other, {}, page(10))
        expect(listed.data).toEqual([])
      }))

    it.effect("lists newest first by (created_at, id), pages with starting_after and filters", () =>
      Effect.gen(function*() {
        const repository = yield* PaymentsRepository
        const tenant = yield* newTenant
        const rows = [
          payment(tenant, { created_at: at(10), currency: "USD" as Currency, customer_id: "cus_a" }),
          payment(tenant, { created_at: at(20), status: "succeeded" }),
          payment(tenant, { created_at: at(20), provider: "sandbox_b" }),
          payment(tenant, { created_at: at(30), customer_id: "cus_a" }),
          payment(tenant, { created_at: at(40), status: "succeeded" })
        ]
        for (const row of rows) yield* repository.insert(tenant, row)
        const newestFirst = [...rows].sort((a, b) =>
          b.created_at.epochMillis - a.created_at.epochMillis || (a.id < b.id ? 1 : -1)
        ).map((row) => row.id)

        const first = yield* repository.list(tenant, {}, page(2))
        expect([first.data.map((row) => row.id), first.hasMore]).toEqual([newestFirst.slice(0, 2), true])
        const second = yield* repository.list(tenant, {}, page(2, first.data[1]!.id))
        expect([second.data.map((row) => row.id), second.hasMore]).toEqual([newestFirst.slice(2, 4), true])
        const last = yield* repository.list(tenant, {}, page(2, second.data[1]!.id))
        expect([last.data.map((row) => row.id), last.hasMore]).toEqual([newestFirst.slice(4), false])

        const filtered = (filter: Parameters<typeof repository.list>[1]) =>
          Effect.map(repository.list(tenant, filter, page(100)), (result) => result.data.map((row) => row.id).sort())
        expect(yield* filtered({ status: "succeeded" })).toEqual([rows[1]!.id, rows[4]!.id].sort())
        expect(yield* filtered({ currency: "USD" })).toEqual([rows[0]!.id])
        expect(yield* filtered({ customer_id: "cus_a" })).toEqual([rows[0]!.id, rows[3]!.id].sort())
        expect(yield* filtered({ provider: "sandbox_b" })).toEqual([rows[2]!.id])

        const other = yield* newTenant
        const foreign = payment(other)
        yield* repository.insert(other, foreign)
        const invalid = yield* Effect.either(repository.list(tenant, {}, page(2, foreign.id)))
        expect(Either.isLeft(invalid) && invalid.left._tag).toBe("InvalidCursor")
      }))

    it.effect("hands an unanswered payment to one reconciler at a time until its lease lapses", () =>
      Effect.gen(function*() {
        const repository = yield* PaymentsRepository
        const tenant = yield* newTenant
        const unanswered = payment(tenant, { attempts: [attempt({ created_at: at(0) })] })
        const recent = payment(tenant, { attempts: [attempt({ created_at: at(10 * 60_000) })] })
        const answered = payment(tenant, { status: "succeeded", attempts: [attempt({ status: "succeeded" })] })
        for (const row of [unanswered, recent, answered]) yield* repository.insert(tenant, row)
        const claim = (nowMillis: number) =>
          Effect.map(
            repository.claimDue(
              { _tag: "Unanswered", sentBefore: at(5 * 60_000) },
              { now: at(nowMillis), until: at(nowMillis + 60_000), limit: 100 }
            ),
            (claimed) => claimed.map(({ item }) => item).filter((ref) => ref.tenant.organizationId === tenant.organizationId)
          )
        expect(yield* claim(6 * 60_000)).toEqual([{ tenant, paymentId: unanswered.id }])
        expect(yield* claim(6 * 60_000 + 1000)).toEqual([])
        expect(yield* claim(8 * 60_000)).toEqual([{ tenant, paymentId: unanswered.id }])
      }))

    it.effect("leases payments that sat in a status since before a time, one follower at a time", () =>
      Effect.gen(function*() {
        const repository = yield* PaymentsRepository
        const tenant = yield* newTenant
        const old = payment(tenant, { status: "requires_capture", updated_at: at(0) })
        const fresh = payment(tenant, { status: "requires_capture", updated_at: at(100_000) })
        const other = payment(tenant, { status: "requires_action", updated_at: at(0) })
        for (const row of [old, fresh, other]) yield* repository.insert(tenant, row)
        const claim = (nowMillis: number) =>
          Effect.map(
            repository.claimDue(
              { _tag: "Waiting", status: "requires_capture", updatedBefore: at(50_000) },
              { now: at(nowMillis), until: at(nowMillis + 60_000), limit: 100 }
            ),
            (claimed) => claimed.map(({ item }) => item).filter((ref) => ref.tenant.organizationId === tenant.organizationId)
          )
        expect(yield* claim(200_000)).toEqual([{ tenant, paymentId: old.id }])
        expect(yield* claim(201_000)).toEqual([])
        expect(yield* claim(300_000)).toEqual([{ tenant, paymentId: old.id }])
      }))

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

    it.effect("stores refunds, lists them by payment and leases pending ones for reconciliation", () =>
      Effect.gen(function*() {
        const payments = yield* PaymentsRepository
        const refunds = yield* RefundsRepository
        const tenant = yield* newTenant
        const paid = payment(tenant, { status: "succeeded", amount_captured: 1050, amount_refunded: 800 })
        yield* payments.insert(tenant, paid)
        const first = refund(tenant, paid.id, { created_at: at(1), reason: "duplicate", metadata: { a: "b" } })
        const second = refund(tenant, paid.id, { created_at: at(2), amount: 300 })
        for (const row of [first, second]) yield* refunds.insert(tenant, row)
        same(Refund, Option.getOrThrow(yield* refunds.find(tenant, first.id)), first)
        const done = new Refund({
          ...first,
          status: "failed",
          provider_refund_id: "re_1",
          failure: new Failure({ code: "refund_declined", message: "no" }),
          updated_at: at(9)
        })
        yield* refunds.update(tenant, done)
        same(Refund, Option.getOrThrow(yield* refunds.findForUpdate(tenant, first.id)), done)

        const listed = yield* refunds.list(tenant, { paymentId: paid.id }, page(1))
        expect([listed.data.map((row) => row.id), listed.hasMore]).toEqual([[second.id], true])
        const next = yield* refunds.list(tenant, { paymentId: undefined }, page(5, second.id))
        expect(next.data.map((row) => row.id)).toEqual([first.id])
        expect(Option.isNone(yield* refunds.find(yield* newTenant, first.id))).toBe(true)

        const claim = (nowMillis: number) =>
          Effect.map(
            refunds.claimPending(at(100), { now: at(nowMillis), until: at(nowMillis + 60_000), limit: 10 }),
            (claimed) => claimed.map(({ item }) => item).filter((ref) => ref.tenant.organizationId === tenant.organizationId)
          )
        expect(yield* claim(200)).toEqual([{ tenant, refundId: second.id }])
        expect(yield* claim(300)).toEqual([])
      }))

    it.effect("stores billing records, finds an invoice by its payment, and leases subscriptions due by their clock", () =>
      Effect.gen(function*() {
        const tenant = yield* newTenant
        const clocks = yield* TestClocksRepository
        const customers = yield* CustomersRepository
        const plans = yield* PlansRepository
        const subscriptions = yield* SubscriptionsRepository
        const invoices = yield* InvoicesRepository
        const clock = new TestClock({
          object: "test_helpers.test_clock",
          id: id("clock"),
          name: null,
          frozen_time: at(1_000),
          status: "ready",
          created_at: at(0),
          livemode: false
        })
        yield* clocks.insert(tenant, clock)
        const customer = (testClock: string | null) =>
          new Customer({
            object: "customer",
            id: id("cus"),
            email: "a@example.com",
            name: null,
            metadata: {},
            test_clock: testClock,
            created_at: at(0),
            livemode: false
          })
        const onClock = customer(clock.id)
        const realTime = customer(null)
        for (const row of [onClock, realTime]) yield* customers.insert(tenant, row)
        const plan = new Plan({
          object: "plan",
          id: id("plan"),
          amount: 1999,
          currency: "EUR" as Currency,
          interval: "month",
          interval_count: 1,
          trial_days: null,
          metadata: {},
          created_at: at(0),
          livemode: false
        })
        yield* plans.insert(tenant, plan)
        same(Plan, Option.getOrThrow(yield* plans.find(tenant, plan.id)), plan)
        const subscription = (owner: Customer, nextRunAt: number, createdAt: number) =>
          new SubscriptionRecord({
            id: id("sub"),
            status: "active",
            customer_id: owner.id,
            plan_id: plan.id,
            provider: "sandbox_a",
            provider_forced: false,
            engine: "orchestrator",
            payment_method: "tok_visa",
            return_url: null,
            current_period_start: at(0),
            current_period_end: at(nextRunAt),
            billing_cycle_anchor: at(0),
            cancel_at_period_end: false,
            canceled_at: null,
            trial_end: null,
            pending_update: null,
            provider_subscription_id: null,
            test_clock: owner.test_clock,
            metadata: {},
            latest_invoice_id: null,
            next_run_at: at(nextRunAt),
            created_at: at(createdAt),
            updated_at: at(createdAt),
            livemode: false
          })
        const clockDue = subscription(onClock, 900, 1)
        const clockLater = subscription(onClock, 2_000, 2)
        const realDue = subscription(realTime, 50_000, 3)
        for (const row of [clockDue, clockLater, realDue]) yield* subscriptions.insert(tenant, row)

        const paid = payment(tenant, { status: "succeeded", amount: 1999, amount_captured: 1999 })
        yield* (yield* PaymentsRepository).insert(tenant, paid)
        const invoice = new InvoiceRecord({
          id: id("in"),
          subscription_id: clockDue.id,
          customer_id: onClock.id,
          plan_id: plan.id,
          status: "paid",
          billing_reason: "subscription_create",
          amount_due: 1999,
          amount_paid: 1999,
          currency: "EUR" as Currency,
          period_start: at(0),
          period_end: at(900),
          attempt_count: 1,
          next_payment_attempt: null,
          payment_id: paid.id,
          created_at: at(0),
          updated_at: at(0),
          livemode: false
        })
        yield* invoices.insert(tenant, invoice)
        same(InvoiceRecord, Option.getOrThrow(yield* invoices.findByPayment(tenant, paid.id)), invoice)
        expect(Option.isNone(yield* invoices.findByPayment(yield* newTenant, paid.id))).toBe(true)
        const listedInvoices = yield* invoices.list(tenant, { subscription: clockDue.id }, page(5))
        expect(listedInvoices.data.map((row) => row.id)).toEqual([invoice.id])

        const updated = new SubscriptionRecord({ ...clockLater, status: "past_due", metadata: { a: "b" } })
        yield* subscriptions.update(tenant, updated)
        same(SubscriptionRecord, Option.getOrThrow(yield* subscriptions.findForUpdate(tenant, clockLater.id)), updated)
        const pastDue = yield* subscriptions.list(tenant, { status: "past_due", customer: undefined, plan: undefined }, page(5))
        expect(pastDue.data.map((row) => row.id)).toEqual([clockLater.id])
        const ofCustomer = yield* subscriptions.list(tenant, { status: undefined, customer: onClock.id, plan: plan.id }, page(5))
        expect(ofCustomer.data.map((row) => row.id)).toEqual([clockLater.id, clockDue.id])

        const mine = <A extends { readonly item: { readonly subscriptionId: string } }>(claimed: ReadonlyArray<A>) =>
          claimed.map(({ item }) => item.subscriptionId).filter((one) => [clockDue.id, clockLater.id, realDue.id].includes(one))
        // The real clock says 60 s; the test clock says 1 s: only what each clock has reached is due.
        const lease = (nowMillis: number) => ({ now: at(nowMillis), until: at(nowMillis + 60_000), limit: 100 })
        const claimed = yield* subscriptions.claimDue(lease(60_000))
        expect(mine(claimed).sort()).toEqual([clockDue.id, realDue.id].sort())
        expect(mine(yield* subscriptions.claimDue(lease(61_000)))).toEqual([])
        for (const held of claimed) yield* subscriptions.release(held.item.subscriptionId, held.token)
        expect(mine(yield* subscriptions.claimDue(lease(62_000))).sort()).toEqual([clockDue.id, realDue.id].sort())

        // An advance asks for its clock's due subscriptions by a later time, earliest first.
        const byTarget = yield* subscriptions.claimDueOnClock(tenant, clock.id, at(5_000), lease(200_000))
        expect(byTarget.map(({ item }) => [item.subscriptionId, item.dueAt.epochMillis])).toEqual([
          [clockDue.id, at(900).epochMillis],
          [clockLater.id, at(2_000).epochMillis]
        ])
        yield* clocks.remove(tenant, clock.id)
        expect(Option.isNone(yield* clocks.find(tenant, clock.id))).toBe(true)
      }))

    it.effect("keeps idempotency keys: one start wins, locks, attach, complete, release and purge", () =>
      Effect.gen(function*() {
        const keys = yield* IdempotencyKeysRepository
        const tenant = yield* newTenant
        const record = {
          key: "order-42",
          fingerprint: "f",
          resourceId: null,
          response: null,
          lockedUntil: at(60_000),
          lockToken: "first",
          createdAt: at(0)
        }
        expect(Option.isNone(yield* keys.start(tenant, record))).toBe(true)
        const existing = Option.getOrThrow(yield* keys.start(tenant, { ...record, fingerprint: "other", lockToken: "x" }))
        expect([existing.fingerprint, existing.resourceId, existing.response, existing.lockToken]).toEqual([
          "f",
          null,
          null,
          "first"
        ])
        expect(DateTime.toEpochMillis(existing.lockedUntil!)).toBe(DateTime.toEpochMillis(at(60_000)))
        // Same key in live mode is another key.
        expect(Option.isNone(yield* keys.start({ ...tenant, livemode: true }, record))).toBe(true)

        const retake = (nowMillis: number, lockToken: string) =>
          keys.acquire(tenant, "order-42", { now: at(nowMillis), lockedUntil: at(nowMillis + 60_000), lockToken })
        expect(Option.isNone(yield* retake(1000, "second"))).toBe(true)
        yield* keys.attach(tenant, "order-42", "first", "pay_1")
        yield* keys.release(tenant, "order-42", "first")
        const taken = Option.getOrThrow(yield* retake(2000, "second"))
        expect([taken.resourceId, taken.lockToken]).toEqual(["pay_1", "second"])

        // The first holder is no longer the holder: what it does now changes nothing.
        yield* keys.attach(tenant, "order-42", "first", "pay_other")
        yield* keys.complete(tenant, "order-42", "first", { status: 500, body: "stale" })
        yield* keys.release(tenant, "order-42", "first")
        const held = Option.getOrThrow(yield* keys.start(tenant, record))
        expect([held.resourceId, held.response, held.lockToken]).toEqual(["pay_1", null, "second"])

        yield* keys.complete(tenant, "order-42", "second", { status: 201, body: "{\"id\":\"pay_1\"}" })
        const finished = Option.getOrThrow(yield* keys.start(tenant, record))
        expect([finished.response, finished.lockedUntil]).toEqual([{ status: 201, body: "{\"id\":\"pay_1\"}" }, null])
        expect(Option.isNone(yield* retake(999_000, "third"))).toBe(true)

        yield* keys.start(tenant, { ...record, key: "held", createdAt: at(0), lockedUntil: at(10 * 86_400_000) })
        yield* keys.start(tenant, { ...record, key: "young", createdAt: at(2 * 86_400_000) })
        yield* keys.purge({ createdBefore: at(86_400_000), now: at(2 * 86_400_000) })
        expect(Option.isNone(yield* keys.start(tenant, { ...record, createdAt: at(3 * 86_400_000) }))).toBe(true)
        expect(Option.isSome(yield* keys.start(tenant, { ...record, key: "held" }))).toBe(true)
        expect(Option.isSome(yield* keys.start(tenant, { ...record, key: "young" }))).toBe(true)
      }))

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
        const mine = (claimed: ReadonlyArray<Leased<StoredEvent>>) =>
          claimed.filter(({ item }) => item.organizationId === tenant.organizationId)
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

    it.effect("keeps a connection's secrets sealed, per connection and kind", () =>
      Effect.gen(function*() {
        const connections = yield* ProviderConnectionsRepository
        const tenant = yield* newTenant
        const connection = new ProviderConnection({
          object: "provider_connection",
          id: id("pcn"),
          name: "stripe_eu",
          type: "stripe",
          status: "active",
          last_error: null,
          supported_currencies: null,
          supported_methods: null,
          settings: {},
          base_url: null,
          consecutive_failures: 0,
          circuit_retry_at: null,
          livemode: false,
          created_at: at(0),
          updated_at: at(0)
        })
        yield* connections.insert(tenant.organizationId, connection)
        expect(Option.isNone(yield* connections.findSealedSecret(connection.id, "credentials"))).toBe(true)
        yield* connections.saveSealedSecret(connection.id, "credentials", "v1.sealed-credentials")
        yield* connections.saveSealedSecret(connection.id, "webhook_secret", "v1.sealed-secret")
        expect(yield* connections.findSealedSecret(connection.id, "credentials")).toEqual(Option.some("v1.sealed-credentials"))
        expect(yield* connections.findSealedSecret(connection.id, "webhook_secret")).toEqual(Option.some("v1.sealed-secret"))
        yield* connections.saveSealedSecret(connection.id, "webhook_secret", null)
        expect(Option.isNone(yield* connections.findSealedSecret(connection.id, "webhook_secret"))).toBe(true)
      }))

    it.effect("stores organizations, keys by hash and provider connections by tenant and name", () =>
      Effect.gen(function*() {
        const organizations = yield* OrganizationsRepository
        const keys = yield* ApiKeysRepository
        const connections = yield* ProviderConnectionsRepository
        const tenant = yield* newTenant
        const organization = Option.getOrThrow(yield* organizations.find(tenant.organizationId))
        same(Organization, Option.getOrThrow(yield* organizations.findByName(organization.name)), organization)
        yield* organizations.update(new Organization({ ...organization, default_provider_live: "sandbox_live" }))
        expect(Option.getOrThrow(yield* organizations.find(tenant.organizationId)).default_provider_live).toBe(
          "sandbox_live"
        )

        const key = new ApiKey({
          id: id("key"),
          organization_id: tenant.organizationId,
          livemode: true,
          key_hash: `hash_${id("key")}`,
          hint: "sk_live_…abcd",
          created_at: at(0),
          revoked_at: null
        })
        yield* keys.insert(key)
        same(ApiKey, Option.getOrThrow(yield* keys.findByHash(key.key_hash)), key)
        yield* keys.update(new ApiKey({ ...key, revoked_at: at(5) }))
        expect(Option.getOrThrow(yield* keys.find(key.id)).revoked_at).not.toBeNull()
        expect((yield* keys.listForOrganization(tenant.organizationId)).map((k) => k.id)).toEqual([key.id])

        const connection = new ProviderConnection({
          object: "provider_connection",
          id: id("pcn"),
          name: "sandbox_a",
          type: "sandbox",
          status: "active",
          last_error: null,
          supported_currencies: ["EUR", "USD"],
          supported_methods: null,
          settings: { latency_ms: 5, outage: false },
          base_url: "https://psp.example",
          consecutive_failures: 0,
          circuit_retry_at: null,
          livemode: false,
          created_at: at(0),
          updated_at: at(0)
        })
        yield* connections.insert(tenant.organizationId, connection)
        same(ProviderConnection, Option.getOrThrow(yield* connections.findByName(tenant, "sandbox_a")), connection)
        expect(Option.isNone(yield* connections.findByName({ ...tenant, livemode: true }, "sandbox_a"))).toBe(true)
        const changed = new ProviderConnection({ ...connection, status: "disabled", settings: { outage: true }, base_url: null })
        yield* connections.update(tenant.organizationId, changed)
        same(ProviderConnection, (yield* connections.list(tenant))[0]!, changed)
        // Deleted: gone from every lookup but the one stored payments make, and its name stays taken.
        yield* connections.markDeleted(tenant, connection.id, at(10))
        expect(yield* connections.list(tenant)).toEqual([])
        expect(Option.isNone(yield* connections.findByName(tenant, "sandbox_a"))).toBe(true)
        expect(Option.isNone(yield* connections.find(tenant, connection.id))).toBe(true)
        expect(Option.isNone(yield* connections.findOwned(connection.id))).toBe(true)
        expect(Option.getOrThrow(yield* connections.findByNameEver(tenant, "sandbox_a")).id).toBe(connection.id)
      }))

    it.effect("keeps a connection's circuit: it opens after enough failures in a row, lets one trial through, and closes on success", () =>
      Effect.gen(function*() {
        const connections = yield* ProviderConnectionsRepository
        const tenant = yield* newTenant
        const connection = testConnection({ id: id("pcn"), name: "flaky", created_at: at(0), updated_at: at(0) })
        yield* connections.insert(tenant.organizationId, connection)
        const fail = (millis: number) =>
          connections.recordFailure(connection.id, { reason: "refused", threshold: 3, retryAt: at(millis + 30_000), now: at(millis) })
        expect((yield* fail(1)).opened).toBe(false)
        // A success in between starts the count again.
        yield* connections.recordSuccess(connection.id, at(2))
        expect((yield* fail(3)).opened).toBe(false)
        expect((yield* fail(4)).opened).toBe(false)
        const opened = yield* fail(5)
        expect(opened.opened).toBe(true)
        expect(opened.connection).toMatchObject({ status: "error", last_error: "refused", consecutive_failures: 3 })
        expect(DateTime.toEpochMillis(opened.connection.circuit_retry_at!)).toBe(DateTime.toEpochMillis(at(30_005)))
        // Not before the cool-down; then one trial at a time.
        expect(yield* connections.claimTrial(connection.id, at(30_000), at(90_000))).toBe(false)
        expect(yield* connections.claimTrial(connection.id, at(30_005), at(90_005))).toBe(true)
        expect(yield* connections.claimTrial(connection.id, at(30_006), at(90_006))).toBe(false)
        // The trial fails: open again, for another cool-down, and no second "opened".
        expect((yield* fail(31_000)).opened).toBe(false)
        expect(yield* connections.claimTrial(connection.id, at(40_000), at(100_000))).toBe(false)
        expect(yield* connections.claimTrial(connection.id, at(61_000), at(121_000))).toBe(true)
        yield* connections.recordSuccess(connection.id, at(62_000))
        const closed = Option.getOrThrow(yield* connections.find(tenant, connection.id))
        expect(closed).toMatchObject({ status: "active", last_error: null, consecutive_failures: 0, circuit_retry_at: null })
        // A disabled connection stays disabled, however its calls end.
        yield* connections.update(tenant.organizationId, new ProviderConnection({ ...closed, status: "disabled" }))
        for (let i = 0; i < 4; i++) yield* fail(70_000 + i)
        expect(Option.getOrThrow(yield* connections.find(tenant, connection.id)).status).toBe("disabled")
      }))

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
  })
