import { atTime, type ConnectorUnavailable, type Job, makeId, type NativeSubscriptions, periodBoundary } from "@orchestrator/core"
import { Clock, Effect, Option, Schema } from "effect"
import type { SandboxLedger, SandboxSubscription } from "./SandboxLedger.js"
import { cardForToken } from "./SandboxTokens.js"
import { SandboxWebhook } from "./SandboxWebhooks.js"
import { type SandboxWebhook as SandboxWebhookBody, subscriptionEventOf } from "./SandboxWebhooks.js"

type SubscriptionWebhook = Extract<SandboxWebhookBody, { type: "subscription.updated" }>

const DAY = 86_400_000

/** The sandbox's own dunning: retries 1, 3 and 5 days after a period's first failed charge, then `unpaid`. */
export const SANDBOX_RETRY_DAYS: ReadonlyArray<number> = [1, 3, 5]

/** How many times one pass may step a subscription that fell behind (worker down, a clock moved far). */
const MAX_STEPS_PER_PASS = 1_000

const encode = Schema.encodeSync(Schema.parseJson(SandboxWebhook))

type Ledger = SandboxLedger["Type"]

const periodStart = (subscription: SandboxSubscription, period: number) =>
  periodBoundary(subscription.anchorMillis, { interval: subscription.interval, interval_count: subscription.intervalCount }, period)

/** How the card behind `token` answers an off-session charge: the customer is not there for 3D Secure. */
const offSessionCharge = (token: string): { readonly paid: true } | { readonly paid: false; readonly code: string; readonly message: string } => {
  const card = cardForToken(token)
  if (card === undefined) return { paid: false, code: "invalid_payment_method", message: `The sandbox does not know the token '${token}'.` }
  switch (card.behaviour._tag) {
    case "Decline":
      return { paid: false, code: card.behaviour.code, message: card.behaviour.message }
    case "ChallengeThenApprove":
      return { paid: false, code: "authentication_required", message: "The card needs 3D Secure, and the customer is not there." }
    default:
      return { paid: true }
  }
}

/** The webhook the sandbox owes about `subscription` (after a charge attempt, with its invoice). */
const notifySubscription = (
  ledger: Ledger,
  subscription: SandboxSubscription,
  invoice: SubscriptionWebhook["data"]["invoice"]
) =>
  Effect.flatMap(Clock.currentTimeMillis, (millis) => {
    const id = makeId("sbev", millis)
    const status = subscription.status === "incomplete" ? "incomplete_expired" : subscription.status
    const body: SubscriptionWebhook = {
      id,
      type: "subscription.updated",
      created: Math.floor(millis / 1000),
      data: { subscription: { id: subscription.id, reference: subscription.reference, status }, invoice }
    }
    return Effect.as(
      ledger.notify({ id, connectionId: subscription.connectionId, createdAtMillis: millis, payload: encode(body) }),
      body
    )
  })

/**
 * One due step of a subscription, at the time it was due: the period's charge (or its retry), or
 * the end a cancel at period end asked for. Saved only if nobody stepped it meanwhile; the charge's
 * reference (subscription, period, attempt) keeps a repeated step from charging twice.
 */
const step = (ledger: Ledger, subscription: SandboxSubscription) =>
  Effect.gen(function*() {
    const dueAt = subscription.nextRunMillis!
    const next = { version: subscription.version + 1 }
    if (subscription.cancelAtPeriodEnd && subscription.attempts === 0) {
      const ended: SandboxSubscription = { ...subscription, ...next, status: "canceled", nextRunMillis: null }
      if (!(yield* ledger.saveSubscription(ended))) return null
      return { subscription: ended, webhook: yield* notifySubscription(ledger, ended, null) }
    }
    const attempt = subscription.attempts + 1
    const result = offSessionCharge(subscription.token)
    const { charge } = yield* ledger.recordCharge({
      id: makeId("ch", dueAt),
      connectionId: subscription.connectionId,
      reference: `${subscription.id}/${subscription.period}/${attempt}`,
      merchantReference: subscription.reference,
      amount: subscription.amount,
      currency: subscription.currency,
      token: subscription.token,
      capture: true,
      status: result.paid ? "succeeded" : "failed",
      amountCaptured: result.paid ? subscription.amount : 0,
      amountRefunded: 0,
      captureReference: null,
      failureCode: result.paid ? null : result.code,
      failureMessage: result.paid ? null : result.message,
      returnUrl: "",
      createdAtMillis: dueAt
    })
    const start = periodStart(subscription, subscription.period)
    const end = periodStart(subscription, subscription.period + 1)
    let moved: SandboxSubscription
    let nextAttempt: number | null = null
    if (charge.status === "succeeded") {
      moved = {
        ...subscription,
        ...next,
        status: "active",
        period: subscription.period + 1,
        attempts: 0,
        firstFailureMillis: null,
        nextRunMillis: end
      }
    } else if (subscription.status === "incomplete") {
      // A first charge declined: no dunning, the subscription never started.
      moved = { ...subscription, ...next, status: "incomplete_expired", attempts: attempt, nextRunMillis: null }
    } else {
      const firstFailure = subscription.firstFailureMillis ?? dueAt
      const retryDays = SANDBOX_RETRY_DAYS[attempt - 1]
      nextAttempt = retryDays === undefined ? null : firstFailure + retryDays * DAY
      moved = {
        ...subscription,
        ...next,
        status: nextAttempt === null ? "unpaid" : "past_due",
        attempts: attempt,
        firstFailureMillis: firstFailure,
        nextRunMillis: nextAttempt
      }
    }
    if (!(yield* ledger.saveSubscription(moved))) return null
    const webhook = yield* notifySubscription(ledger, moved, {
      id: `${subscription.id}_${subscription.period}`,
      period_start: start,
      period_end: end,
      amount: subscription.amount,
      currency: subscription.currency,
      attempt,
      status: charge.status === "succeeded" ? "paid" : "failed",
      charge: charge.id,
      failure_code: charge.failureCode,
      next_attempt: nextAttempt
    })
    return { subscription: moved, webhook }
  })

/**
 * The sandbox's subscription schedule, on its own clock (`Clock`): every step due by now, in time
 * order, each at the time it was due. Its webhooks go out with the sandbox's other notifications.
 */
export const sandboxSubscriptionsJob = (ledger: Ledger): Job => ({
  name: "sandbox-subscriptions",
  every: "1 second",
  run: Effect.gen(function*() {
    let steps = 0
    while (steps < MAX_STEPS_PER_PASS) {
      const now = yield* Clock.currentTimeMillis
      const due = yield* ledger.dueSubscriptions(now, 1)
      const first = due[0]
      if (first === undefined) break
      // Each step sees the time it was due, as if the sandbox had never fallen behind.
      yield* atTime(first.nextRunMillis!)(step(ledger, first))
      steps++
    }
    return steps
  })
})

/** The subscriptions capability of one sandbox connection. */
export const sandboxNativeSubscriptions = (
  ledger: Ledger,
  connectionId: string,
  respond: <A>(work: Effect.Effect<A>) => Effect.Effect<A, ConnectorUnavailable>
): NativeSubscriptions => {
  const owned = (id: string) => Effect.map(ledger.findSubscription(id), Option.filter((subscription) => subscription.connectionId === connectionId))

  /** Applies `change` (null: nothing to change) to the subscription, again on a fresh read if a schedule step saved in between. */
  const modify = (id: string, change: (subscription: SandboxSubscription) => SandboxSubscription | null) =>
    Effect.gen(function*() {
      for (let tries = 0; tries < 10; tries++) {
        const found = yield* owned(id)
        if (Option.isNone(found)) return null
        const changed = change(found.value)
        if (changed === null) return null
        const next = { ...changed, version: found.value.version + 1 }
        if (yield* ledger.saveSubscription(next)) return next
      }
      return yield* Effect.dieMessage(`sandbox subscription ${id} kept changing`)
    })

  const final = (subscription: SandboxSubscription) => subscription.status === "canceled" || subscription.status === "incomplete_expired"

  return {
    create: (request) =>
      respond(Effect.gen(function*() {
        const millis = yield* Clock.currentTimeMillis
        const anchor = request.trialEndMillis ?? request.startMillis
        const { subscription } = yield* ledger.recordSubscription({
          id: makeId("sbsub", millis),
          connectionId,
          reference: request.reference,
          amount: request.amount,
          currency: request.currency,
          interval: request.interval,
          intervalCount: request.intervalCount,
          anchorMillis: anchor,
          token: request.paymentMethod.token,
          status: request.trialEndMillis === null ? "incomplete" : "trialing",
          period: 0,
          attempts: 0,
          firstFailureMillis: null,
          cancelAtPeriodEnd: false,
          onTestClock: request.testClock,
          nextRunMillis: anchor,
          version: 0,
          createdAtMillis: millis
        })
        return { pspSubscriptionId: subscription.id }
      })),
    cancel: ({ atPeriodEnd, pspSubscriptionId }) =>
      respond(Effect.gen(function*() {
        const ended = yield* modify(pspSubscriptionId, (subscription) =>
          final(subscription)
            ? null
            : atPeriodEnd
            ? { ...subscription, cancelAtPeriodEnd: true }
            : { ...subscription, status: "canceled", nextRunMillis: null })
        if (ended !== null && ended.status === "canceled") yield* notifySubscription(ledger, ended, null)
      })),
    advance: ({ pspSubscriptionId, toMillis }) =>
      respond(Effect.gen(function*() {
        const reports: Array<ReturnType<typeof subscriptionEventOf>> = []
        for (let steps = 0; steps < MAX_STEPS_PER_PASS; steps++) {
          const found = yield* owned(pspSubscriptionId)
          if (Option.isNone(found)) return { reports, nextRunMillis: null }
          const subscription = found.value
          if (subscription.nextRunMillis === null || subscription.nextRunMillis > toMillis) {
            return { reports, nextRunMillis: subscription.nextRunMillis }
          }
          const stepped = yield* atTime(subscription.nextRunMillis)(step(ledger, subscription))
          if (stepped !== null) reports.push(subscriptionEventOf(stepped.webhook))
        }
        return yield* Effect.dieMessage(`sandbox subscription ${pspSubscriptionId} does not settle`)
      })),
    updatePaymentMethod: ({ paymentMethod, pspSubscriptionId }) =>
      respond(Effect.asVoid(modify(pspSubscriptionId, (subscription) => final(subscription) ? null : { ...subscription, token: paymentMethod.token })))
  }
}
