import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Runtime } from "effect"
import * as fc from "fast-check"
import type { Currency } from "../src/domain/Currency.js"
import { type NativeInvoice, ProviderEvent } from "../src/domain/providers/ConnectorOutcomes.js"
import { addIntervals } from "../src/domain/subscriptions/BillingPeriod.js"
import { SubscriptionRecord } from "../src/domain/subscriptions/Subscription.js"
import { now } from "../src/domain/Timestamp.js"
import { BillingRecords } from "../src/features/subscriptions/BillingRecords.js"
import { Customers } from "../src/features/subscriptions/Customers.js"
import { Invoices } from "../src/features/subscriptions/Invoices.js"
import { NativeBilling } from "../src/features/subscriptions/NativeBilling.js"
import { Plans } from "../src/features/subscriptions/Plans.js"
import { Subscriptions } from "../src/features/subscriptions/Subscriptions.js"
import { Transactions } from "../src/ports/Transactions.js"
import { createTenant, makeTestServices } from "./support/TestServices.js"

const DAY = 86_400_000

/** How one period ended at the PSP: paid at an attempt (1-4), or only failed `failures` times (4: gave up). */
type PeriodOutcome = { readonly paidAt: number } | { readonly failures: number }

/** The PSP's reports of a history, in the order it made them (the sandbox's retry days: 1, 3, 5). */
const reportsOf = (history: ReadonlyArray<PeriodOutcome>): ReadonlyArray<NativeInvoice> =>
  history.flatMap((outcome, period) => {
    const start = addIntervals(0, "month", period)
    const attempts = "paidAt" in outcome ? outcome.paidAt : outcome.failures
    return Array.from({ length: attempts }, (_, index): NativeInvoice => {
      const attempt = index + 1
      const paid = "paidAt" in outcome && attempt === outcome.paidAt
      const retryDay = [1, 3, 5][attempt - 1]
      return {
        pspInvoiceId: `sbin_${period}`,
        periodStartMillis: start,
        periodEndMillis: addIntervals(0, "month", period + 1),
        amount: 1000,
        currency: "EUR",
        attempt,
        outcome: paid ? "paid" : "failed",
        failureCode: paid ? null : "card_declined",
        nextAttemptMillis: paid || retryDay === undefined ? null : start + retryDay * DAY
      }
    })
  })

/** Paid first periods, then a last one that may still be failing or have given up. */
const histories = fc.tuple(
  fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 0, maxLength: 3 }),
  fc.oneof(fc.record({ paidAt: fc.integer({ min: 1, max: 4 }) }), fc.record({ failures: fc.integer({ min: 1, max: 4 }) }))
).map(([paid, last]): ReadonlyArray<PeriodOutcome> => [{ paidAt: 1 }, ...paid.map((paidAt) => ({ paidAt })), last])

describe("native subscriptions normalized from the PSP's reports", () => {
  it.effect("any order of the reports, with repeats, ends where the PSP's own order ends", () => {
    const services = makeTestServices()
    return Effect.gen(function*() {
      const tenant = yield* createTenant
      const customer = yield* (yield* Customers).create(tenant, { email: "jenny@example.com" })
      const plan = yield* (yield* Plans).create(tenant, { amount: 1000, currency: "EUR" as Currency, interval: "month" })
      const records = yield* BillingRecords
      const transactions = yield* Transactions
      const native = yield* NativeBilling
      const subscriptions = yield* Subscriptions
      const invoices = yield* Invoices
      const runtime = yield* Effect.runtime<never>()
      let count = 0

      /** A native subscription told `reports` in that order; what it and its invoices end as. */
      const told = (reports: ReadonlyArray<NativeInvoice>) =>
        Effect.gen(function*() {
          const time = yield* now
          const id = `sub_native_${count++}`
          yield* transactions.run(records.createSubscription(
            tenant,
            new SubscriptionRecord({
              id,
              status: "incomplete",
              customer_id: customer.id,
              plan_id: plan.id,
              provider: "sandbox_a",
              provider_forced: false,
              engine: "native",
              payment_method: "tok_visa",
              return_url: null,
              current_period_start: time,
              current_period_end: DateTime.unsafeMake(addIntervals(0, "month", 1)),
              billing_cycle_anchor: time,
              cancel_at_period_end: false,
              canceled_at: null,
              trial_end: null,
              pending_update: null,
              provider_subscription_id: "sbsub_1",
              test_clock: null,
              metadata: {},
              latest_invoice_id: null,
              next_run_at: null,
              created_at: time,
              updated_at: time,
              livemode: false
            })
          ))
          for (const [index, invoice] of reports.entries()) {
            const applied = yield* native.apply(
              tenant,
              "sandbox_a",
              ProviderEvent.SubscriptionUpdated({
                eventId: `sbev_${index}`,
                reference: id,
                pspSubscriptionId: "sbsub_1",
                status: "active",
                invoice
              })
            )
            expect(applied).toBe("applied")
          }
          const subscription = yield* subscriptions.retrieve(tenant, id)
          const all = yield* invoices.list(tenant, { subscription: id }, { limit: 100, startingAfter: undefined })
          return {
            status: subscription.status,
            period: subscription.current_period_start.epochMillis,
            latest: subscription.latest_invoice?.period_start.epochMillis,
            invoices: all.data
              .map((invoice) => [invoice.period_start.epochMillis, invoice.status, invoice.attempt_count, invoice.amount_paid])
              .sort((a, b) => (a[0] as number) - (b[0] as number))
          }
        })

      // The PSP's own order, spelled out once.
      const inOrder = yield* told(reportsOf([{ paidAt: 1 }, { paidAt: 3 }, { failures: 4 }]))
      expect(inOrder).toEqual({
        status: "unpaid",
        period: addIntervals(0, "month", 2),
        latest: addIntervals(0, "month", 2),
        invoices: [
          [0, "paid", 1, 1000],
          [addIntervals(0, "month", 1), "paid", 3, 1000],
          [addIntervals(0, "month", 2), "uncollectible", 4, 0]
        ]
      })

      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(
            histories.chain((history) => {
              const reports = reportsOf(history)
              return fc.tuple(
                fc.constant(reports),
                fc.shuffledSubarray([...reports], { minLength: reports.length, maxLength: reports.length }),
                fc.array(fc.constantFrom(...reports), { maxLength: 4 })
              )
            }),
            ([reports, shuffled, repeats]) =>
              Runtime.runPromise(runtime)(Effect.gen(function*() {
                const expected = yield* told(reports)
                const actual = yield* told([...shuffled, ...repeats])
                expect(actual).toEqual(expected)
              }))
          ),
          { numRuns: 60 }
        )
      )
    }).pipe(Effect.provide(services.layer))
  })
})
