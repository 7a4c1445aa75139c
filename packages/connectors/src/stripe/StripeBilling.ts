import { type ConnectorError, ConnectorUnavailable, type NativeSubscriptions } from "@orchestrator/core"
import { Effect, Either, Schema } from "effect"
import { stripeCurrency, toStripeAmount } from "./StripeAmounts.js"
import { read, type StripeCall } from "./StripeApi.js"
import { isEnded, nextDueOf, StripeId, StripeSubscription, StripeTestClock } from "./StripeBillingObjects.js"
import type { FormObject } from "./StripeForm.js"
import { REFERENCE_KEY } from "./StripeObjects.js"

const seconds = (millis: number) => Math.floor(millis / 1000)
const path = (id: string) => encodeURIComponent(id)

/**
 * Stripe Billing as the `engine: native` of a Stripe connection. Each subscription gets its own
 * Stripe customer (on a Stripe test clock when ours is on one), the card attached to it, a price for
 * the plan, and the subscription, each under an idempotency key derived from our subscription id, so
 * a repeated create answers the same objects. Stripe then runs the schedule, the retries and the
 * end of the subscription, and tells us by `invoice.*` and `customer.subscription.*` webhooks.
 */
export const makeStripeBilling = (call: StripeCall): NativeSubscriptions => {
  /** Calls Stripe and reads the object it answers; any refusal is the PSP not taking the request. */
  const object = <A, I>(schema: Schema.Schema<A, I>, what: string, request: Parameters<StripeCall>[1]) =>
    Effect.flatMap(call(what, request), (answer): Effect.Effect<A, ConnectorError> =>
      answer._tag === "Ok"
        ? read(schema, what)(answer.json)
        : Effect.fail(
          new ConnectorUnavailable({
            reason: `Stripe ${what}: refused (HTTP ${answer.status})`,
            providerMessage: `${answer.error.code ?? answer.error.type ?? ""} ${answer.error.message ?? ""}`.trim()
          })
        ))

  const post = <A, I>(schema: Schema.Schema<A, I>, what: string, path: string, idempotencyKey: string, form: FormObject) =>
    object(schema, what, { method: "POST", path, idempotencyKey, form })

  const retrieve = (id: string) =>
    object(StripeSubscription, "retrieve subscription", {
      method: "GET",
      path: `/v1/subscriptions/${path(id)}`,
      query: { "expand[]": "latest_invoice" }
    })

  /** Attaches the card to the subscription's customer: Stripe charges off-session only a customer's own card. */
  const attach = (token: string, customer: string, idempotencyKey: string) =>
    post(StripeId, "attach payment method", `/v1/payment_methods/${path(token)}/attach`, idempotencyKey, { customer })

  return {
    create: (request) =>
      Effect.gen(function*() {
        const amount = toStripeAmount(request.amount, request.currency)
        if (Either.isLeft(amount)) return yield* new ConnectorUnavailable({ reason: amount.left.message })
        const key = (what: string) => `${request.reference}:${what}`
        const clock = request.testClock
          ? yield* post(StripeId, "create test clock", "/v1/test_helpers/test_clocks", key("test_clock"), {
            frozen_time: seconds(request.startMillis),
            name: request.reference
          })
          : null
        const customer = yield* post(StripeId, "create customer", "/v1/customers", key("customer"), {
          email: request.customer?.email ?? undefined,
          name: request.customer?.name ?? undefined,
          test_clock: clock?.id,
          metadata: { [REFERENCE_KEY]: request.reference, customer_id: request.customer?.id }
        })
        // Stripe's test cards (`pm_card_visa`) make a new PaymentMethod when attached: its id is the one to charge.
        const card = yield* attach(request.paymentMethod.token, customer.id, key("payment_method"))
        const price = yield* post(StripeId, "create price", "/v1/prices", key("price"), {
          currency: stripeCurrency(request.currency),
          unit_amount: amount.right,
          recurring: { interval: request.interval, interval_count: request.intervalCount },
          product_data: { name: `Subscription ${request.reference}` }
        })
        const subscription = yield* post(StripeSubscription, "create subscription", "/v1/subscriptions", key("subscription"), {
          customer: customer.id,
          items: [{ price: price.id }],
          default_payment_method: card.id,
          trial_end: request.trialEndMillis === null ? undefined : seconds(request.trialEndMillis),
          // A declined first charge leaves the subscription `incomplete` (its invoice tells us) rather than failing the call.
          payment_behavior: "allow_incomplete",
          off_session: true,
          metadata: { [REFERENCE_KEY]: request.reference }
        })
        return { pspSubscriptionId: subscription.id }
      }),

    cancel: ({ atPeriodEnd, pspSubscriptionId }) =>
      Effect.gen(function*() {
        const subscription = yield* retrieve(pspSubscriptionId)
        if (isEnded(subscription.status)) return
        const at = `/v1/subscriptions/${path(pspSubscriptionId)}`
        yield* atPeriodEnd
          ? post(StripeSubscription, "cancel subscription at period end", at, `${pspSubscriptionId}:cancel_at_period_end`, { cancel_at_period_end: true })
          : object(StripeSubscription, "cancel subscription", { method: "DELETE", path: at })
      }),

    advance: ({ pspSubscriptionId, toMillis }) =>
      Effect.gen(function*() {
        const subscription = yield* retrieve(pspSubscriptionId)
        const clockId = subscription.test_clock
        if (isEnded(subscription.status) || clockId == null) return { reports: [], nextRunMillis: null }
        const clock = yield* object(StripeTestClock, "retrieve test clock", { method: "GET", path: `/v1/test_helpers/test_clocks/${path(clockId)}` })
        if (clock.status !== "ready") {
          return yield* new ConnectorUnavailable({ reason: `Stripe's test clock is ${clock.status}; it takes one advance at a time` })
        }
        const to = seconds(toMillis)
        if (to > clock.frozen_time) {
          yield* post(StripeTestClock, "advance test clock", `/v1/test_helpers/test_clocks/${path(clockId)}/advance`, `${clockId}:advance:${to}`, {
            frozen_time: to
          })
        }
        // Stripe tells what it did by webhook. Asked again at its next due time, it moves one renewal or
        // retry at a time, in order with our clock's other work (and never more than Stripe's limit of
        // two intervals per advance). Still advancing in the background, it may show an older state:
        // then it is asked again a second on.
        const next = nextDueOf(yield* retrieve(pspSubscriptionId))
        return { reports: [], nextRunMillis: next === null ? null : Math.max(next, toMillis + 1000) }
      }),

    updatePaymentMethod: ({ paymentMethod, pspSubscriptionId }) =>
      Effect.gen(function*() {
        const subscription = yield* retrieve(pspSubscriptionId)
        if (isEnded(subscription.status)) return
        // A fresh key: the same card may come back after another, and must then be set again.
        const key = `${pspSubscriptionId}:payment_method:${globalThis.crypto.randomUUID()}`
        const card = yield* attach(paymentMethod.token, subscription.customer, key)
        yield* post(StripeSubscription, "update subscription", `/v1/subscriptions/${path(pspSubscriptionId)}`, `${key}:default`, {
          default_payment_method: card.id
        })
      })
  }
}
