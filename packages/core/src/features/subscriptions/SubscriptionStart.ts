import { DateTime, Duration, Effect } from "effect"
import { periodBoundary } from "../../domain/subscriptions/BillingPeriod.js"
import type { Plan } from "../../domain/subscriptions/Plan.js"
import { type CreateSubscription, SubscriptionRecord } from "../../domain/subscriptions/Subscription.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { Connectors } from "../connections/Connectors.js"
import { knownCardOf, routingFactsOf } from "../routing/PaymentFacts.js"
import { ProviderResolution } from "../routing/ProviderResolution.js"

/** What both engines do first for a new subscription: choose its provider and write how it starts. */
export const makeSubscriptionStart = Effect.gen(function*() {
  const resolution = yield* ProviderResolution
  const connectors = yield* Connectors
  const ids = yield* IdGenerator

  /** Where a new subscription's charges go: its forced provider, or routing's choice for the plan's amount. */
  const providerFor = (tenant: Tenant, input: CreateSubscription, plan: Plan) =>
    Effect.gen(function*() {
      // The card's country from its token, as the payments of its invoices are routed.
      const method = { type: "card", token: input.payment_method }
      const card = yield* knownCardOf(connectors, method)
      return yield* resolution.forPayment(tenant, {
        provider: input.provider,
        ...routingFactsOf({ amount: plan.amount, currency: plan.currency, payment_method: method }, card)
      })
    })

  /**
   * A new subscription as it starts: in its trial, or awaiting its first charge for a first period
   * anchored now. The worker's schedule (`next_run_at`) and the first invoice are each engine's to add.
   */
  const startingRecord = (
    tenant: Tenant,
    input: CreateSubscription,
    customer: { readonly id: string; readonly test_clock: string | null },
    plan: Plan,
    connection: { readonly name: string },
    engine: SubscriptionRecord["engine"]
  ) =>
    Effect.gen(function*() {
      const createdAt = yield* now
      const trialDays = input.trial_days ?? plan.trial_days ?? 0
      const trialEnd = trialDays > 0 ? DateTime.addDuration(createdAt, Duration.days(trialDays)) : null
      const anchor = trialEnd ?? createdAt
      return new SubscriptionRecord({
        id: yield* ids.make("sub"),
        status: trialEnd === null ? "incomplete" : "trialing",
        customer_id: customer.id,
        plan_id: plan.id,
        provider: connection.name,
        provider_forced: input.provider !== undefined,
        engine,
        payment_method: input.payment_method,
        return_url: input.return_url ?? null,
        current_period_start: createdAt,
        current_period_end: trialEnd ?? DateTime.unsafeMake(periodBoundary(anchor.epochMillis, plan, 1)),
        billing_cycle_anchor: anchor,
        cancel_at_period_end: false,
        canceled_at: null,
        trial_end: trialEnd,
        pending_update: null,
        provider_subscription_id: null,
        test_clock: customer.test_clock,
        metadata: input.metadata ?? {},
        latest_invoice_id: null,
        // The PSP runs a native schedule: the worker never bills it (on a test clock, it moves the PSP's clock).
        next_run_at: null,
        created_at: createdAt,
        updated_at: createdAt,
        livemode: tenant.livemode
      })
    })

  return { providerFor, startingRecord }
})

export type SubscriptionStart = Effect.Effect.Success<typeof makeSubscriptionStart>
