import { expect } from "@effect/vitest"
import { type Currency, EventsRepository, Failure, NextAction, Payment, PaymentAttempt, PaymentMethod, PaymentsRepository } from "@orchestrator/core"
import { Duration, Effect, Either, Option } from "effect"
import { at, attempt, newTenant, page, payment, paymentEvent, same, type StorageContractTest } from "./StorageContractFixtures.js"

/** Writing a payment: what is written reads back the same, and a change only while the payment is as last seen. */
const paymentWrites = (it: StorageContractTest) => {
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
}

/** Reading payments: per tenant and mode, newest first, paged and filtered. */
const paymentReads = (it: StorageContractTest) => {
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
      const newestFirst = [...rows].sort((a, b) => b.created_at.epochMillis - a.created_at.epochMillis || (a.id < b.id ? 1 : -1)).map((row) => row.id)

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

  it.effect("lists in the order payments were made (by id) when asked, whatever created_at a test clock gave them", () =>
    Effect.gen(function*() {
      const repository = yield* PaymentsRepository
      const tenant = yield* newTenant
      // Made in this order (ids are time-ordered); the second on a test clock two years ahead.
      const rows = [
        payment(tenant, { created_at: at(10) }),
        payment(tenant, { created_at: at(63_072_000_000), metadata: { test_clock: "clock_1" } }),
        payment(tenant, { created_at: at(30) })
      ]
      for (const row of rows) yield* repository.insert(tenant, row)
      const ids = rows.map((row) => row.id)
      expect((yield* repository.list(tenant, {}, page(3))).data.map((row) => row.id)).toEqual([ids[1], ids[2], ids[0]])
      const first = yield* repository.list(tenant, { order_by: "id" }, page(2))
      expect([first.data.map((row) => row.id), first.hasMore]).toEqual([[ids[2], ids[1]], true])
      const rest = yield* repository.list(tenant, { order_by: "id" }, page(2, first.data[1]!.id))
      expect([rest.data.map((row) => row.id), rest.hasMore]).toEqual([[ids[0]], false])
    }))
}

/** Leasing payments to the jobs that follow them: one holder at a time until the lease lapses. */
const paymentLeases = (it: StorageContractTest) => {
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
            { _tag: "Unanswered", sentBefore: at(5 * 60_000), callTimeout: Duration.seconds(30) },
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
}

/** A payment store: what it writes it reads back, per tenant, paged and leased for the jobs that follow payments. */
export const paymentsRepositoryContract = (it: StorageContractTest) => {
  paymentWrites(it)
  paymentReads(it)
  paymentLeases(it)
}
