import { DateTime, Effect } from "effect"
import { NoProviderAvailable, ProviderNotUsable } from "../../domain/routing/RoutingErrors.js"
import { IN_FLIGHT_RECHECK } from "../../domain/subscriptions/BillingSchedule.js"
import type { CancelSubscription, SubscriptionRecord, UpdateSubscription } from "../../domain/subscriptions/Subscription.js"
import { BillingRequestInvalid } from "../../domain/subscriptions/SubscriptionErrors.js"
import { isFinal } from "../../domain/subscriptions/SubscriptionTransitions.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import { CustomersRepository } from "../../ports/CustomersRepository.js"
import type { PaymentConnector } from "../../ports/PaymentConnector.js"
import { PlansRepository } from "../../ports/PlansRepository.js"
import { Transactions } from "../../ports/Transactions.js"
import { Connectors } from "../connections/Connectors.js"
import { ProviderResolution } from "../routing/ProviderResolution.js"
import { BillingRecords } from "./BillingRecords.js"
import { NativeBilling } from "./NativeBilling.js"

/**
 * `engine: native`, both directions: what we ask of the PSP that runs the subscription (start it,
 * change or cancel it, move its simulated clock), and what it reports back, taken through `NativeBilling`.
 */
export const makeNativeSubscriptions = Effect.gen(function*() {
  const records = yield* BillingRecords
  const customers = yield* CustomersRepository
  const plans = yield* PlansRepository
  const resolution = yield* ProviderResolution
  const connectors = yield* Connectors
  const nativeBilling = yield* NativeBilling
  const transactions = yield* Transactions

  /** The connector of a subscription's connection, with its subscriptions capability. */
  const nativeConnector = (tenant: Tenant, provider: string) =>
    Effect.gen(function*() {
      const connection = yield* resolution.byName(tenant, provider)
      const connector: PaymentConnector = yield* Effect.orDie(connectors.forConnection(connection))
      return connector.subscriptions
    })

  /** A subscription's connection must run subscriptions itself for `engine: native`. */
  const requireNative = (tenant: Tenant, connection: { readonly name: string; readonly type: string }) =>
    Effect.flatMap(nativeConnector(tenant, connection.name), (capability) =>
      capability !== undefined ? Effect.void : Effect.fail(
        new BillingRequestInvalid({
          param: "engine",
          code: "engine_not_supported",
          message: `Provider '${connection.name}' (${connection.type}) does not run subscriptions itself; use engine 'orchestrator'.`
        })
      ))

  /**
   * Asks the PSP to run a native subscription (idempotent on our id), and keeps the PSP's id. Done
   * again when the same request is repeated after the PSP could not be reached.
   */
  const startAtPsp = (tenant: Tenant, subscriptionId: string) =>
    Effect.gen(function*() {
      const subscription = yield* Effect.orDie(records.subscription(tenant, subscriptionId))
      if (subscription.provider_subscription_id !== null || isFinal(subscription.status)) return
      const plan = yield* Effect.orDie(Effect.flatMap(plans.find(tenant, subscription.plan_id), (option) => option))
      const customer = yield* Effect.orDie(Effect.flatMap(customers.find(tenant, subscription.customer_id), (option) => option))
      const capability = yield* nativeConnector(tenant, subscription.provider)
      if (capability === undefined) return yield* Effect.dieMessage(`provider ${subscription.provider} lost its subscriptions`)
      const started = yield* capability.create({
        reference: subscription.id,
        amount: plan.amount,
        currency: plan.currency,
        interval: plan.interval,
        intervalCount: plan.interval_count,
        startMillis: subscription.created_at.epochMillis,
        trialEndMillis: subscription.trial_end === null ? null : subscription.trial_end.epochMillis,
        paymentMethod: { type: "card", token: subscription.payment_method },
        customer: { id: customer.id, email: customer.email, name: customer.name },
        testClock: subscription.test_clock !== null
      }).pipe(Effect.mapError((error) => new NoProviderAvailable({ reason: `the PSP could not start the subscription (${error._tag}); repeat the request` })))
      yield* transactions.run(Effect.flatMap(
        records.lockSubscription(tenant, subscriptionId),
        (locked) =>
          records.saveSubscription(tenant, locked, {
            provider_subscription_id: started.pspSubscriptionId,
            // On a test clock the PSP's simulated time moves with the clock's advances (`runNative`),
            // starting with the first charge, due at once (or at the trial's end).
            next_run_at: locked.test_clock === null ? null : locked.trial_end ?? locked.created_at
          })
      ))
    })

  /**
   * A native subscription on a test clock, at the clock's time: the PSP's simulated clock is moved
   * to it, and what the PSP reports is taken through the same normalizer as its webhooks (which
   * follow, and then change nothing). Off a test clock the PSP's own clock runs it: nothing to do.
   */
  const runNative = (tenant: Tenant, subscriptionId: string) =>
    Effect.gen(function*() {
      const subscription = yield* Effect.orDie(records.subscription(tenant, subscriptionId))
      const pspSubscriptionId = subscription.provider_subscription_id
      const keep = (next_run_at: DateTime.Utc | null) =>
        transactions.run(Effect.flatMap(
          records.lockSubscription(tenant, subscriptionId),
          (locked) => records.saveSubscription(tenant, locked, { next_run_at: isFinal(locked.status) ? null : next_run_at })
        ))
      if (subscription.test_clock === null || pspSubscriptionId === null || isFinal(subscription.status)) return yield* keep(null)
      const capability = yield* nativeConnector(tenant, subscription.provider)
      if (capability === undefined) return yield* keep(null)
      const time = yield* now
      const advanced = yield* Effect.either(capability.advance({ pspSubscriptionId, toMillis: time.epochMillis }))
      if (advanced._tag === "Left") {
        yield* Effect.logWarning(`the PSP could not advance native subscription ${subscriptionId}`, advanced.left)
        return yield* keep(DateTime.addDuration(time, IN_FLIGHT_RECHECK))
      }
      for (const report of advanced.right.reports) yield* nativeBilling.apply(tenant, subscription.provider, report)
      yield* keep(advanced.right.nextRunMillis === null ? null : DateTime.unsafeMake(advanced.right.nextRunMillis))
    })

  /**
   * A merchant's change to a native subscription goes to the PSP first, which runs it; what the PSP
   * took is then recorded here as for the other engine. A plan change is not offered natively yet.
   */
  const tellPsp = (
    tenant: Tenant,
    subscription: SubscriptionRecord,
    change: { readonly update: UpdateSubscription } | { readonly cancel: CancelSubscription }
  ) =>
    Effect.gen(function*() {
      const pspSubscriptionId = subscription.provider_subscription_id
      if (pspSubscriptionId === null) return
      const capability = yield* nativeConnector(tenant, subscription.provider)
      if (capability === undefined) return yield* Effect.dieMessage(`provider ${subscription.provider} lost its subscriptions`)
      const told = "cancel" in change
        ? capability.cancel({ pspSubscriptionId, atPeriodEnd: change.cancel.at_period_end === true })
        : change.update.payment_method === undefined
        ? Effect.void
        : capability.updatePaymentMethod({ pspSubscriptionId, paymentMethod: { type: "card", token: change.update.payment_method } })
      yield* told.pipe(Effect.mapError((error) =>
        new ProviderNotUsable({ provider: subscription.provider, reason: `the PSP could not be reached (${error._tag}); repeat the request` })
      ))
    })

  return { requireNative, startAtPsp, runNative, tellPsp }
})

export type NativeSubscriptions = Effect.Effect.Success<typeof makeNativeSubscriptions>
