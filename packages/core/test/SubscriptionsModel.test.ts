import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, TestClock, TestContext } from "effect"
import * as fc from "fast-check"
import type { Currency } from "../src/domain/Currency.js"
import { AuthorizationOutcome } from "../src/domain/providers/ConnectorOutcomes.js"
import type { Invoice } from "../src/domain/subscriptions/Invoice.js"
import type { Subscription } from "../src/domain/subscriptions/Subscription.js"
import { SubscriptionStateMachine } from "../src/domain/subscriptions/SubscriptionStateMachine.js"
import { Customers } from "../src/features/subscriptions/Customers.js"
import { Invoices } from "../src/features/subscriptions/Invoices.js"
import { Plans } from "../src/features/subscriptions/Plans.js"
import { Subscriptions } from "../src/features/subscriptions/Subscriptions.js"
import { EventsRepository } from "../src/ports/EventsRepository.js"
import { Jobs } from "../src/ports/Jobs.js"
import { createTenant, makeTestServices } from "./support/TestServices.js"

const card = { brand: "visa", last4: "0002", country: "US" }
const declined = AuthorizationOutcome.Refused({
  pspPaymentId: null,
  code: "card_declined",
  message: "Your card was declined.",
  retryable: false,
  card
})

type Action =
  | { readonly _tag: "wait"; readonly hours: number }
  | { readonly _tag: "card"; readonly good: boolean }
  | { readonly _tag: "cancel"; readonly atPeriodEnd: boolean }
  | { readonly _tag: "plan"; readonly which: 0 | 1 }

const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 24 * 40 }).map((hours) => ({ _tag: "wait" as const, hours })) },
  { weight: 2, arbitrary: fc.boolean().map((good) => ({ _tag: "card" as const, good })) },
  { weight: 1, arbitrary: fc.boolean().map((atPeriodEnd) => ({ _tag: "cancel" as const, atPeriodEnd })) },
  { weight: 1, arbitrary: fc.constantFrom<0 | 1>(0, 1).map((which) => ({ _tag: "plan" as const, which })) }
)

/** Runs the real service (memory storage, scripted PSP, TestClock) through `actions`; what it recorded. */
const simulate = (trialDays: number, actions: ReadonlyArray<Action>) =>
  Effect.gen(function*() {
    const tenant = yield* createTenant
    const customer = yield* (yield* Customers).create(tenant, {})
    const plans = yield* Plans
    const monthly = yield* plans.create(tenant, { amount: 1000, currency: "EUR" as Currency, interval: "month", trial_days: trialDays })
    const weekly = yield* plans.create(tenant, { amount: 300, currency: "EUR" as Currency, interval: "week", interval_count: 2 })
    const subscriptions = yield* Subscriptions
    const created = yield* subscriptions.create(tenant, { customer: customer.id, plan: monthly.id, payment_method: "tok_visa" })
    const billDue = Effect.flatMap(Jobs, (jobs) => jobs.find((job) => job.name === "bill-subscriptions")!.run)
    for (const step of actions) {
      const change = (effect: Effect.Effect<unknown, { readonly _tag: string }>) =>
        Effect.catchTag(effect as Effect.Effect<unknown, { readonly _tag: "SubscriptionFinal" }>, "SubscriptionFinal", () => Effect.void)
      switch (step._tag) {
        case "wait":
          // Half a day at a time, as a worker polling would see it.
          for (let hour = 0; hour < step.hours; hour += 12) {
            yield* TestClock.adjust("12 hours")
            yield* billDue
          }
          break
        case "card":
          yield* change(subscriptions.update(tenant, created.id, { payment_method: step.good ? "tok_visa" : "tok_bad" }))
          break
        case "cancel":
          yield* change(subscriptions.cancel(tenant, created.id, { at_period_end: step.atPeriodEnd }))
          break
        case "plan":
          yield* change(subscriptions.update(tenant, created.id, { plan: step.which === 0 ? monthly.id : weekly.id }))
          break
      }
    }
    const events = [...yield* Effect.flatMap(EventsRepository, (repository) => repository.listRecent(tenant, 100_000))].reverse()
    const invoices = yield* Effect.orDie((yield* Invoices).list(tenant, { subscription: created.id }, { limit: 100, startingAfter: undefined }))
    return {
      subscriptionEvents: events.filter((event) => event.type.startsWith("subscription.")).map((event) => event.data.object as Subscription),
      invoiceEvents: events.filter((event) => event.type.startsWith("invoice.")).map((event) => ({ type: event.type, invoice: event.data.object as Invoice })),
      invoices: [...invoices.data].reverse(),
      final: yield* Effect.orDie(subscriptions.retrieve(tenant, created.id)),
      plans: { [monthly.id]: monthly.amount, [weekly.id]: weekly.amount }
    }
  })

describe("the subscription engine against its table (model-based, TestClock)", () => {
  it("no sequence of time, card changes, cancels and plan changes makes a move outside the table", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(0, 10), fc.array(action, { minLength: 1, maxLength: 12 }), async (trialDays, actions) => {
        const services = makeTestServices({ tok_bad: [declined] })
        const run = await Effect.runPromise(
          simulate(trialDays, actions).pipe(Effect.provide(services.layer), Effect.provide(TestContext.TestContext))
        )
        // Every status the subscription showed, in order, is a walk of the state machine.
        let previous: string | null = null
        for (const shown of run.subscriptionEvents) {
          expect(Either.isRight(SubscriptionStateMachine.move(previous as never, shown.status))).toBe(true)
          previous = shown.status
        }
        expect(previous).toBe(run.final.status)
        // Each invoice is paid at most once, for exactly its plan's amount, by a payment that succeeded.
        const paid = run.invoiceEvents.filter((event) => event.type === "invoice.paid").map((event) => event.invoice.id)
        expect(new Set(paid).size).toBe(paid.length)
        for (const invoice of run.invoices) {
          expect(invoice.amount_due).toBe(run.plans[invoice.plan_id])
          if (invoice.status === "paid") expect([invoice.payment?.status, invoice.payment?.amount]).toEqual(["succeeded", invoice.amount_due])
        }
        // Periods follow each other without gap or overlap.
        for (let i = 1; i < run.invoices.length; i++) {
          expect(run.invoices[i]!.period_start.epochMillis).toBe(run.invoices[i - 1]!.period_end.epochMillis)
        }
        // Nothing happens to a subscription after it is canceled.
        const canceledAt = run.subscriptionEvents.findIndex((shown) => shown.status === "canceled")
        if (canceledAt !== -1) expect(canceledAt).toBe(run.subscriptionEvents.length - 1)
      }),
      { numRuns: 25 }
    )
  }, 120_000)
})
