import { expect } from "@effect/vitest"
import {
  type Currency,
  CustomersRepository,
  InvoiceRecord,
  InvoicesRepository,
  PaymentsRepository,
  Plan,
  PlansRepository,
  SubscriptionRecord,
  SubscriptionsRepository,
  TestClock,
  TestClocksRepository
} from "@orchestrator/core"
import { Effect, Option } from "effect"
import { at, customer, id, monthlyPlan, newTenant, page, payment, same, type StorageContractTest, subscription } from "./StorageContractFixtures.js"

const testClock = () =>
  new TestClock({
    object: "test_helpers.test_clock",
    id: id("clock"),
    name: null,
    frozen_time: at(1_000),
    status: "ready",
    created_at: at(0),
    livemode: false
  })

const paidInvoice = (subscription: SubscriptionRecord, paymentId: string) =>
  new InvoiceRecord({
    id: id("in"),
    subscription_id: subscription.id,
    customer_id: subscription.customer_id,
    plan_id: subscription.plan_id,
    status: "paid",
    billing_reason: "subscription_create",
    amount_due: 1999,
    amount_paid: 1999,
    currency: "EUR" as Currency,
    period_start: at(0),
    period_end: at(900),
    attempt_count: 1,
    next_payment_attempt: null,
    payment_id: paymentId,
    created_at: at(0),
    updated_at: at(0),
    livemode: false
  })

/** The billing stores (clocks, customers, plans, subscriptions, invoices), tested together because renewal leases read across them. */
export const billingRepositoriesContract = (it: StorageContractTest) => {
  it.effect("stores billing records, finds an invoice by its payment, and leases subscriptions due by their clock", () =>
    Effect.gen(function*() {
      const tenant = yield* newTenant
      const clocks = yield* TestClocksRepository
      const customers = yield* CustomersRepository
      const plans = yield* PlansRepository
      const subscriptions = yield* SubscriptionsRepository
      const invoices = yield* InvoicesRepository
      const clock = testClock()
      yield* clocks.insert(tenant, clock)
      const onClock = customer(clock.id)
      const realTime = customer(null)
      for (const row of [onClock, realTime]) yield* customers.insert(tenant, row)
      const plan = monthlyPlan()
      yield* plans.insert(tenant, plan)
      same(Plan, Option.getOrThrow(yield* plans.find(tenant, plan.id)), plan)
      const clockDue = subscription(plan, onClock, 900, 1)
      const clockLater = subscription(plan, onClock, 2_000, 2)
      const realDue = subscription(plan, realTime, 50_000, 3)
      for (const row of [clockDue, clockLater, realDue]) yield* subscriptions.insert(tenant, row)

      const paid = payment(tenant, { status: "succeeded", amount: 1999, amount_captured: 1999 })
      yield* (yield* PaymentsRepository).insert(tenant, paid)
      const invoice = paidInvoice(clockDue, paid.id)
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
}
