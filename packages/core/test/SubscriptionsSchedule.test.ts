import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, TestClock } from "effect"
import type { Currency } from "../src/domain/Currency.js"
import { AuthorizationOutcome } from "../src/domain/providers/ConnectorOutcomes.js"
import { Events } from "../src/features/events/Events.js"
import { Payments } from "../src/features/payments/Payments.js"
import { Refunds } from "../src/features/refunds/Refunds.js"
import { Customers } from "../src/features/subscriptions/Customers.js"
import { Invoices } from "../src/features/subscriptions/Invoices.js"
import { Plans } from "../src/features/subscriptions/Plans.js"
import { Subscriptions } from "../src/features/subscriptions/Subscriptions.js"
import { Jobs } from "../src/ports/Jobs.js"
import { createTenant, makeTestServices } from "./support/TestServices.js"

const card = { brand: "visa", last4: "4242", country: "US" }
const approved = AuthorizationOutcome.Authorized({ pspPaymentId: "psp_ok", captured: true, amountCaptured: 1000, card })
const declined = AuthorizationOutcome.Refused({
  pspPaymentId: null,
  code: "insufficient_funds",
  message: "Your card has insufficient funds.",
  retryable: false,
  card
})

const runJob = (name: string) => Effect.flatMap(Jobs, (jobs) => jobs.find((job) => job.name === name)!.run)
const billDue = runJob("bill-subscriptions")

const subscribe = (token: string) =>
  Effect.gen(function*() {
    const tenant = yield* createTenant
    const customer = yield* (yield* Customers).create(tenant, { email: "jenny@example.com" })
    const plan = yield* (yield* Plans).create(tenant, { amount: 1000, currency: "EUR" as Currency, interval: "month" })
    const subscriptions = yield* Subscriptions
    const subscription = yield* subscriptions.create(tenant, { customer: customer.id, plan: plan.id, payment_method: token })
    const invoices = (yield* Invoices).list(tenant, { subscription: subscription.id }, { limit: 100, startingAfter: undefined })
    return { tenant, subscription, subscriptions, invoices }
  })

describe("the subscription schedule on the real clock (TestClock)", () => {
  it.effect("the worker renews a period once it has ended, not before", () => {
    const services = makeTestServices()
    return Effect.gen(function*() {
      const { invoices, subscription, subscriptions, tenant } = yield* subscribe("tok_visa")
      expect([subscription.status, subscription.current_period_end.epochMillis]).toEqual(["active", Date.UTC(1970, 1, 1)])

      yield* TestClock.adjust("30 days")
      yield* billDue
      expect((yield* invoices).data.length).toBe(1)

      yield* TestClock.adjust("1 day")
      yield* billDue
      const renewed = yield* subscriptions.retrieve(tenant, subscription.id)
      expect([renewed.status, renewed.current_period_start.epochMillis, renewed.current_period_end.epochMillis])
        .toEqual(["active", Date.UTC(1970, 1, 1), Date.UTC(1970, 2, 1)])
      expect((yield* invoices).data.map((invoice) => [invoice.status, invoice.payment?.off_session])).toEqual([
        ["paid", true],
        ["paid", false]
      ])
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("a failed renewal is retried on the dunning schedule and recovers when a retry is paid", () => {
    const services = makeTestServices({ tok_flaky: [approved, declined, declined, approved] })
    return Effect.gen(function*() {
      const { invoices, subscription, subscriptions, tenant } = yield* subscribe("tok_flaky")
      yield* TestClock.adjust("31 days")
      yield* billDue
      const pastDue = yield* subscriptions.retrieve(tenant, subscription.id)
      expect([pastDue.status, pastDue.latest_invoice?.next_payment_attempt?.epochMillis])
        .toEqual(["past_due", Date.UTC(1970, 1, 2)])

      yield* TestClock.adjust("23 hours")
      yield* billDue
      expect((yield* subscriptions.retrieve(tenant, subscription.id)).latest_invoice?.attempt_count).toBe(1)

      yield* TestClock.adjust("1 hour")
      yield* billDue
      const retried = yield* subscriptions.retrieve(tenant, subscription.id)
      expect([retried.status, retried.latest_invoice?.attempt_count, retried.latest_invoice?.next_payment_attempt?.epochMillis])
        .toEqual(["past_due", 2, Date.UTC(1970, 1, 4)])

      yield* TestClock.adjust("2 days")
      yield* billDue
      const recovered = yield* subscriptions.retrieve(tenant, subscription.id)
      expect([recovered.status, recovered.latest_invoice?.status, recovered.latest_invoice?.attempt_count])
        .toEqual(["active", "paid", 3])
      expect((yield* invoices).data.length).toBe(2)
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("a renewal whose PSP never answered is finished under the same reference, charged once", () => {
    const services = makeTestServices({ tok_slow: [approved, "hang", approved] })
    return Effect.gen(function*() {
      const { invoices, subscription, subscriptions, tenant } = yield* subscribe("tok_slow")
      yield* TestClock.adjust("31 days")
      const renewing = yield* Effect.fork(billDue)
      yield* TestClock.adjust("1 minute")
      yield* Fiber.join(renewing)
      const waiting = yield* subscriptions.retrieve(tenant, subscription.id)
      expect([waiting.status, waiting.latest_invoice?.status, waiting.latest_invoice?.payment?.status])
        .toEqual(["active", "open", "processing"])

      yield* TestClock.adjust("1 hour")
      yield* billDue
      const settled = yield* subscriptions.retrieve(tenant, subscription.id)
      expect([settled.status, settled.latest_invoice?.status, settled.latest_invoice?.attempt_count])
        .toEqual(["active", "paid", 1])
      expect(settled.latest_invoice?.payment?.id).toBe(waiting.latest_invoice?.payment?.id)
      expect(settled.current_period_end.epochMillis).toBe(Date.UTC(1970, 2, 1))
      // Two sends of the renewal, both under the one attempt's reference: one charge at the PSP.
      const renewalReference = waiting.latest_invoice!.payment!.attempts[0]!.id
      expect(services.psp.calls.filter((call) => call.reference === renewalReference).length).toBe(2)
      expect((yield* invoices).data.length).toBe(2)
    }).pipe(Effect.provide(services.layer))
  })
  it.effect("a renewal paid before its news was applied is settled, not charged a second time", () => {
    const services = makeTestServices({ tok_slow: [approved, "hang", approved, approved, approved] })
    return Effect.gen(function*() {
      const { invoices, subscription, subscriptions, tenant } = yield* subscribe("tok_slow")
      yield* TestClock.adjust("31 days")
      const renewing = yield* Effect.fork(billDue)
      yield* TestClock.adjust("1 minute")
      yield* Fiber.join(renewing)
      const paymentId = (yield* subscriptions.retrieve(tenant, subscription.id)).latest_invoice!.payment!.id
      // The payment's reconciliation (or the PSP's webhook) settles it before billing hears of it.
      expect((yield* (yield* Payments).resume(tenant, paymentId)).status).toBe("succeeded")

      yield* TestClock.adjust("1 hour")
      yield* billDue
      const settled = yield* subscriptions.retrieve(tenant, subscription.id)
      expect([settled.latest_invoice?.status, settled.latest_invoice?.attempt_count, settled.latest_invoice?.payment?.id])
        .toEqual(["paid", 1, paymentId])
      // The first charge, and the renewal's one attempt sent twice under its reference: nothing else.
      expect(services.psp.calls.length).toBe(3)
      expect((yield* invoices).data.length).toBe(2)
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("a renewal that succeeds after its subscription was canceled is refunded in full, once", () => {
    const services = makeTestServices({ tok_slow: [approved, "hang", approved] })
    return Effect.gen(function*() {
      const { subscription, subscriptions, tenant } = yield* subscribe("tok_slow")
      yield* TestClock.adjust("31 days")
      const renewing = yield* Effect.fork(billDue)
      yield* TestClock.adjust("1 minute")
      yield* Fiber.join(renewing)
      // Canceled while the renewal's answer is still unknown: its invoice is void, the payment processing.
      const canceled = yield* subscriptions.cancel(tenant, subscription.id, {})
      expect([canceled.status, canceled.latest_invoice?.status, canceled.latest_invoice?.payment?.status])
        .toEqual(["canceled", "void", "processing"])
      const paymentId = canceled.latest_invoice!.payment!.id

      // The PSP did charge it: reconciliation finds out, and billing hears of it.
      expect((yield* (yield* Payments).resume(tenant, paymentId)).status).toBe("succeeded")
      yield* runJob("dispatch-events")
      const refunded = yield* (yield* Refunds).list(tenant, { paymentId }, { limit: 10, startingAfter: undefined })
      expect(refunded.data.map((refund) => [refund.amount, refund.status, refund.reason, refund.metadata.invoice]))
        .toEqual([[1000, "succeeded", "invoice_void", canceled.latest_invoice!.id]])
      expect((yield* (yield* Payments).retrieve(tenant, paymentId)).amount_refunded).toBe(1000)
      const after = yield* subscriptions.retrieve(tenant, subscription.id)
      expect([after.status, after.latest_invoice?.status]).toEqual(["canceled", "void"])

      // The same news handed over again (the outbox delivers at least once) refunds nothing more.
      const succeeded = (yield* (yield* Events).list(tenant, { type: "payment.succeeded", createdGte: undefined, createdLte: undefined }, {
        limit: 10,
        startingAfter: undefined
      }))
        .data.find((event) => (event.data.object as { id: string }).id === paymentId)!
      yield* subscriptions.consumer.consume(tenant.organizationId, succeeded)
      expect((yield* (yield* Refunds).list(tenant, { paymentId }, { limit: 10, startingAfter: undefined })).data.length)
        .toBe(1)
    }).pipe(Effect.provide(services.layer))
  })
})
